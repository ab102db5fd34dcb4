// JSX names for the player's custom elements (media-elements.ts defines them). React 19 passes a prop to a
// custom element as a property when the element has one, else as an attribute: every value here is
// written as the attribute's string (or true for a boolean attribute), which works before and after the
// element is defined.
import type { DetailedHTMLProps, HTMLAttributes } from 'react';

type MediaElementProps = DetailedHTMLProps<HTMLAttributes<HTMLElement>, HTMLElement> & { [attribute: string]: unknown };

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'media-controller': MediaElementProps;
      'media-control-bar': MediaElementProps;
      'media-play-button': MediaElementProps;
      'media-time-range': MediaElementProps;
      'media-time-display': MediaElementProps;
      'media-mute-button': MediaElementProps;
      'media-volume-range': MediaElementProps;
      'media-pip-button': MediaElementProps;
      'media-fullscreen-button': MediaElementProps;
      'media-loading-indicator': MediaElementProps;
      'media-playback-rate-menu': MediaElementProps;
      'media-playback-rate-menu-button': MediaElementProps;
      'media-rendition-menu': MediaElementProps;
      'media-rendition-menu-button': MediaElementProps;
      'media-captions-menu': MediaElementProps;
      'media-captions-menu-button': MediaElementProps;
      'hls-video': MediaElementProps;
    }
  }
}
