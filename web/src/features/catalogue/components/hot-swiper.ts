// Loaded on demand by the home carousel: Swiper core and only the modules it uses.
import Swiper from 'swiper';
import { Autoplay, Navigation } from 'swiper/modules';
import type { SwiperOptions } from 'swiper/types';

export function createSwiper(el: HTMLElement, options: SwiperOptions): Swiper {
  return new Swiper(el, { modules: [Autoplay, Navigation], ...options });
}
