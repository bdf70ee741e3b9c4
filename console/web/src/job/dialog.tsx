import { useEffect, useId, useRef, type ReactNode } from 'react';

/**
 * A modal dialog on the platform's own `<dialog>` and `showModal()`: the browser keeps focus inside it and the page
 * behind it inert, and Escape asks to close it (the `cancel` event), which is handed to `onClose` so the caller decides
 * (the step drawer drops its URL parameter). Focus goes back to what had it before the dialog opened, else to
 * `returnFocus` (a deep link opens the dialog with nothing focused).
 */
export function Dialog({
  title,
  onClose,
  children,
  className,
  returnFocus,
  closeLabel = 'Close',
}: {
  title: ReactNode;
  onClose: () => void;
  children: ReactNode;
  className?: string;
  returnFocus?: () => HTMLElement | null;
  closeLabel?: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const close = useRef(onClose);
  useEffect(() => {
    close.current = onClose;
  }, [onClose]);
  const fallback = useRef(returnFocus);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const fallbackFocus = fallback.current;
    if (!dialog.open) dialog.showModal();
    const onCancel = (event: Event) => {
      event.preventDefault();
      close.current();
    };
    dialog.addEventListener('cancel', onCancel);
    return () => {
      dialog.removeEventListener('cancel', onCancel);
      if (dialog.open) dialog.close();
      const target = opener && opener !== document.body && opener.isConnected ? opener : fallbackFocus?.();
      target?.focus();
    };
  }, []);

  return (
    <dialog ref={ref} className={`dialog ${className ?? ''}`} aria-labelledby={titleId}>
      <div className="dialog-head">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="secondary small" onClick={() => close.current()}>
          {closeLabel}
        </button>
      </div>
      {children}
    </dialog>
  );
}
