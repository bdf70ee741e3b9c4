import './forms.css';

/**
 * Why a field is invalid, under it: the field names this paragraph in `aria-describedby` and sets `aria-invalid`, so a
 * screen reader reads the reason with the field, and sighted people see it instead of only a greyed-out button.
 */
export function FieldError({ id, message }: { id: string; message: string | null }) {
  if (!message) return null;
  return (
    <p id={id} className="field-error">
      {message}
    </p>
  );
}

/** The two attributes an invalid field carries; `hintId` keeps an existing description beside the error. */
export function invalidProps(errorId: string, message: string | null, hintId?: string) {
  const describedBy = [message ? errorId : null, hintId ?? null].filter(Boolean).join(' ');
  return {
    'aria-invalid': message ? (true as const) : undefined,
    'aria-describedby': describedBy || undefined,
  };
}
