import { Link } from '@tanstack/react-router';
import { CONSENT_TEXTS } from '../../../../../worker/schemas/privacy-texts';

/**
 * The privacy policy's box, unticked until the person ticks it (docs/decisions/1050): sign-up and a first
 * Google sign-in send it as acceptPrivacy. The link opens the policy in a new tab so the form keeps its input.
 */
export function PrivacyConsentCheck({
  id,
  checked,
  onChange,
  error,
}: {
  id: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  error?: string;
}) {
  const errorId = `${id}-error`;
  return (
    <div className="form-field">
      <label className="form-check consent-check">
        <input
          id={id}
          type="checkbox"
          name="acceptPrivacy"
          checked={checked}
          onChange={(e) => onChange(e.target.checked)}
          aria-invalid={error ? true : undefined}
          aria-describedby={errorId}
          aria-required
        />
        <span>
          {CONSENT_TEXTS.checkbox}{' '}
          <Link to="/bao-mat" target="_blank" rel="noopener">
            {CONSENT_TEXTS.policyLink}
          </Link>
        </span>
      </label>
      <p id={errorId} className="field-error" role={error ? 'alert' : undefined}>
        {error}
      </p>
    </div>
  );
}
