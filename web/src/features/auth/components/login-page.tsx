import { useForm } from '@tanstack/react-form';
import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { z } from 'zod';
import { emailSchema, PASSWORD_MAX_LENGTH } from '../../../../../worker/schemas/auth';
import { SITE_SUFFIX, usePageMeta } from '../../../lib/page-meta';
import { reportError } from '../../../lib/report-error';
import type { SignedIn } from '../../../lib/session';
import { toast } from '../../../lib/toast';
import { GOOGLE_LOGIN_FAILED, LOGIN_ERROR, LOGIN_FAILED, signIn } from '../api/auth-api';
import {
  browserSupportsWebAuthn,
  browserSupportsWebAuthnAutofill,
  cancelPasskeyCeremony,
  isPasskeyCancel,
  passkeyRefusal,
  signInWithPasskey,
} from '../api/passkey-api';
import { AccountForm, serverErrors, SubmitRow, TextField, UNKNOWN_ERROR } from '../forms/form-kit';
import { GOOGLE_CLIENT_ID, GoogleSignInButton } from './google-sign-in-button';
import { PrivacyConsentCheck } from './privacy-consent-check';
import { ApiError } from '../../../lib/api-client';
import { CONSENT_FIELD, CONSENT_TEXTS } from '../../../../../worker/schemas/privacy-texts';

/** The API's answer to a first Google sign-in sent without the privacy policy accepted (it would create an account). */
const needsConsent = (err: unknown) => err instanceof ApiError && err.status === 400 && err.message.startsWith(`${CONSENT_FIELD}:`);

/** The sign-in form's rules: the wire contract's email, and a password that is there. */
const signInSchema = z.object({
  email: emailSchema,
  password: z.string().min(1, 'is required').max(PASSWORD_MAX_LENGTH, 'is too long'),
  remember: z.boolean(),
});

/** A failed sign-in says the same whatever was wrong (400/401); other refusals (429, 403, 409) say their own. */
const SIGN_IN_TEXTS = { 400: LOGIN_FAILED, 401: LOGIN_FAILED } as const;

/**
 * /dang-nhap: email and password (Enter submits), "Quên mật khẩu?", a passkey (the browser's autofill on the
 * email field, and a button), and Google when configured.
 */
export function LoginPage({ redirectTo }: { redirectTo?: string }) {
  const navigate = useNavigate();
  const [formError, setFormError] = useState('');
  const [passkeyBusy, setPasskeyBusy] = useState(false);
  const [passkeys, setPasskeys] = useState(false);
  /** A Google credential held while the person ticks the privacy box (a first sign-in creates an account). */
  const [pendingGoogle, setPendingGoogle] = useState<string | null>(null);
  const [googleConsent, setGoogleConsent] = useState(false);
  const [googleConsentError, setGoogleConsentError] = useState('');
  usePageMeta({
    title: `Đăng nhập | ${SITE_SUFFIX}`,
    description: 'Đăng nhập PhimViet để bình luận, đánh giá phim và xem phim VIP.',
    robots: 'noindex, follow',
  });

  const done = (session: SignedIn) => {
    toast.success(`Xin chào, ${session.name}!`);
    void navigate({ href: redirectTo ?? '/', replace: true });
  };

  const form = useForm({
    defaultValues: { email: '', password: '', remember: false },
    validators: {
      onSubmit: signInSchema,
      onSubmitAsync: async ({ value }) => {
        setFormError('');
        try {
          done(await signIn({ email: value.email, password: value.password }, value.remember));
          return undefined;
        } catch (err) {
          reportError('auth: sign-in', err);
          const errors = serverErrors(err, ['email', 'password'], SIGN_IN_TEXTS);
          return errors.fields ? errors : { form: errors.form === UNKNOWN_ERROR ? LOGIN_ERROR : errors.form };
        }
      },
    },
  });
  // "Ghi nhớ đăng nhập" as it is when a passkey answer arrives (the autofill may finish long after the page opened).
  const remember = useRef(false);

  const passkeySignIn = async (autofill: boolean) => {
    if (!autofill) setPasskeyBusy(true);
    setFormError('');
    try {
      done(await signInWithPasskey(() => remember.current, autofill));
    } catch (err) {
      if (!isPasskeyCancel(err)) {
        reportError('auth: passkey sign-in', err);
        setFormError(passkeyRefusal(err) ?? serverErrors(err, []).form ?? LOGIN_ERROR);
      }
    } finally {
      if (!autofill) setPasskeyBusy(false);
    }
  };

  // The browser's autofill offers this site's passkeys on the email field (conditional mediation), asked for
  // once the person reaches for that field: started with the page, an authenticator that answers by itself
  // would sign in before anyone chose to, and the passkey button would be gone before it could be tapped.
  const autofill = useRef<'idle' | 'started'>('idle');
  const startAutofill = () => {
    if (autofill.current !== 'idle') return;
    autofill.current = 'started';
    void browserSupportsWebAuthnAutofill().then((ok) => {
      if (ok) void passkeySignIn(true);
    });
  };
  useEffect(() => {
    setPasskeys(browserSupportsWebAuthn());
    return () => cancelPasskeyCeremony();
  }, []);

  return (
    <div className="container auth-page">
      <section className="auth-card" aria-labelledby="login-heading">
        <h1 id="login-heading" className="auth-title">
          Đăng nhập
        </h1>
        <p className="muted auth-lead">Đăng nhập để bình luận, đánh giá phim và xem phim VIP.</p>
        <AccountForm form={form} errorId="login-error">
          <form.Field name="email">
            {(field) => (
              <TextField
                field={field}
                id="login-email"
                label="Email"
                type="email"
                autoComplete="username webauthn"
                inputMode="email"
                required
                onFocus={startAutofill}
              />
            )}
          </form.Field>
          <form.Field name="password">
            {(field) => (
              <TextField field={field} id="login-password" label="Mật khẩu" type="password" autoComplete="current-password" required />
            )}
          </form.Field>
          <div className="auth-row">
            <form.Field name="remember">
              {(field) => (
                <label className="form-check">
                  <input
                    type="checkbox"
                    name="remember"
                    checked={field.state.value}
                    onChange={(e) => {
                      remember.current = e.target.checked;
                      field.handleChange(e.target.checked);
                    }}
                  />
                  <span>Ghi nhớ đăng nhập</span>
                </label>
              )}
            </form.Field>
            <Link to="/quen-mat-khau">Quên mật khẩu?</Link>
          </div>
          <SubmitRow form={form} errorId="login-error" label="Đăng nhập" busyLabel="Đang đăng nhập..." block message={formError} />
        </AccountForm>
        {passkeys && (
          <>
            <p className="auth-divider">
              <span>hoặc</span>
            </p>
            <button type="button" className="btn btn-ghost btn-block" onClick={() => void passkeySignIn(false)} disabled={passkeyBusy}>
              {passkeyBusy ? 'Đang xác thực...' : 'Đăng nhập bằng khóa đăng nhập'}
            </button>
          </>
        )}
        {GOOGLE_CLIENT_ID && (
          <GoogleSignInButton
            onCredential={(googleToken) => {
              setFormError('');
              signIn({ googleToken }, remember.current).then(done, (err: unknown) => {
                if (needsConsent(err)) {
                  setPendingGoogle(googleToken);
                  return;
                }
                reportError('auth: google sign-in', err);
                setFormError(serverErrors(err, [], { 400: GOOGLE_LOGIN_FAILED, 401: GOOGLE_LOGIN_FAILED }).form ?? GOOGLE_LOGIN_FAILED);
              });
            }}
            onError={() => setFormError(GOOGLE_LOGIN_FAILED)}
          />
        )}
        {pendingGoogle && (
          <section className="google-consent" aria-labelledby="google-consent-lead">
            <p id="google-consent-lead">{CONSENT_TEXTS.googleFirstTime}</p>
            <PrivacyConsentCheck
              id="google-accept-privacy"
              checked={googleConsent}
              onChange={(checked) => {
                setGoogleConsent(checked);
                setGoogleConsentError('');
              }}
              error={googleConsentError}
            />
            <button
              type="button"
              className="btn btn-primary btn-block"
              onClick={() => {
                if (!googleConsent) return setGoogleConsentError(CONSENT_TEXTS.required);
                signIn({ googleToken: pendingGoogle, acceptPrivacy: true }, remember.current).then(done, (err: unknown) => {
                  reportError('auth: google sign-in', err);
                  setPendingGoogle(null);
                  setFormError(serverErrors(err, [], { 400: GOOGLE_LOGIN_FAILED, 401: GOOGLE_LOGIN_FAILED }).form ?? GOOGLE_LOGIN_FAILED);
                });
              }}
            >
              {CONSENT_TEXTS.googleContinue}
            </button>
          </section>
        )}
        <p className="auth-switch">
          Chưa có tài khoản? <Link to="/dang-ky">Đăng ký ngay</Link>
        </p>
      </section>
    </div>
  );
}
