import { Link, type LinkProps } from '@tanstack/react-router';
import { useEffect, useId, useRef, useState } from 'react';

export interface NavEntry {
  label: string;
  link: LinkProps;
}

/**
 * A header menu: a button that opens a panel of links. Closes on Escape, on a click outside and after
 * following a link. On narrow screens it becomes an accordion inside the mobile menu (CSS).
 */
export function NavDropdown({ label, entries, columns = 3 }: { label: string; entries: NavEntry[]; columns?: number }) {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLLIElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const id = useId();

  useEffect(() => {
    if (!open) return;
    const onPointer = (e: PointerEvent) => {
      if (!ref.current?.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        setOpen(false);
        buttonRef.current?.focus();
      }
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  return (
    <li className={`nav-item nav-dropdown ${open ? 'open' : ''}`} ref={ref}>
      <button
        ref={buttonRef}
        type="button"
        className="nav-link nav-dropdown-toggle"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((o) => !o)}
      >
        {label}
        <svg viewBox="0 0 24 24" width="14" height="14" aria-hidden="true" fill="currentColor">
          <path d="M7 10l5 5 5-5z" />
        </svg>
      </button>
      <ul id={id} className="nav-menu" style={{ ['--cols' as string]: columns }} hidden={!open}>
        {/* Entries render only while open: dozens of router links cost every page's first render. */}
        {open &&
          entries.map((entry) => (
            <li key={entry.label}>
              <Link {...entry.link} className="nav-menu-link" onClick={() => setOpen(false)}>
                {entry.label}
              </Link>
            </li>
          ))}
      </ul>
    </li>
  );
}
