import { useEffect, useRef, useState } from 'react';

/** Build-time: the Google button exists only when the site has a Google client id (docs/configuration.md). */
export const GOOGLE_CLIENT_ID: string = import.meta.env.VITE_GOOGLE_CLIENT_ID ?? '';

const GSI_SRC = 'https://accounts.google.com/gsi/client';

interface CredentialResponse {
  credential?: string;
}

interface GoogleIdentity {
  accounts: {
    id: {
      initialize(options: {
        client_id: string;
        callback: (response: CredentialResponse) => void;
        ux_mode?: 'popup' | 'redirect';
        auto_select?: boolean;
      }): void;
      renderButton(parent: HTMLElement, options: Record<string, string | number>): void;
    };
  };
}

let gsi: Promise<GoogleIdentity> | undefined;

/** Loads Google Identity Services once (the CSP allows exactly this script). */
function loadGsi(): Promise<GoogleIdentity> {
  gsi ??= new Promise<GoogleIdentity>((resolve, reject) => {
    const w = window as Window & { google?: GoogleIdentity };
    if (w.google?.accounts?.id) return resolve(w.google);
    const script = document.createElement('script');
    script.src = GSI_SRC;
    script.async = true;
    script.onload = () => (w.google?.accounts?.id ? resolve(w.google) : reject(new Error('Google Identity Services did not load')));
    script.onerror = () => {
      gsi = undefined;
      script.remove();
      reject(new Error('Google Identity Services did not load'));
    };
    document.head.appendChild(script);
  });
  return gsi;
}

/**
 * "Sign in with Google": hands the ID token (credential) to onCredential; onError when Google
 * returns no credential. Renders nothing if the script cannot load (offline).
 */
export function GoogleSignInButton({ onCredential, onError }: { onCredential: (credential: string) => void; onError: () => void }) {
  const box = useRef<HTMLDivElement>(null);
  const handlers = useRef({ onCredential, onError });
  handlers.current = { onCredential, onError };
  const [unavailable, setUnavailable] = useState(false);

  useEffect(() => {
    let cancelled = false;
    loadGsi()
      .then((google) => {
        if (cancelled || !box.current) return;
        google.accounts.id.initialize({
          client_id: GOOGLE_CLIENT_ID,
          ux_mode: 'popup',
          callback: (response) => (response.credential ? handlers.current.onCredential(response.credential) : handlers.current.onError()),
        });
        google.accounts.id.renderButton(box.current, {
          type: 'standard',
          theme: 'filled_black',
          size: 'large',
          shape: 'pill',
          text: 'signin_with',
          locale: 'vi',
          width: 300,
        });
      })
      .catch((error: unknown) => {
        console.warn('[auth] Google sign-in unavailable', error);
        if (!cancelled) setUnavailable(true);
      });
    return () => {
      cancelled = true;
    };
  }, []);

  if (unavailable) return null;
  return (
    <>
      <p className="auth-divider">
        <span>hoặc</span>
      </p>
      <div ref={box} className="google-button" />
    </>
  );
}
