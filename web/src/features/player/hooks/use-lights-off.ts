import { useEffect, useState } from 'react';

/** 'Tắt đèn': dims the whole page except the player (body class; global.css). Escape turns it back on. */
export function useLightsOff(): [boolean, (on: boolean) => void] {
  const [off, setOff] = useState(false);
  useEffect(() => {
    document.body.classList.toggle('lights-off', off);
    if (!off) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setOff(false);
    const onClick = (e: MouseEvent) => (e.target as HTMLElement).classList.contains('lights-overlay') && setOff(false);
    const overlay = document.createElement('div');
    overlay.className = 'lights-overlay';
    document.body.appendChild(overlay);
    document.addEventListener('keydown', onKey);
    document.addEventListener('click', onClick);
    return () => {
      document.body.classList.remove('lights-off');
      overlay.remove();
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('click', onClick);
    };
  }, [off]);
  return [off, setOff];
}
