import { useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';

/** One keyboard shortcut: the keys a person types (`g w` is g, then w) and what they do. */
interface Shortcut {
  keys: string[];
  label: string;
  to?: string;
  adminOnly?: boolean;
}

/** Every shortcut the console knows, as the `?` overlay lists them. A page's own keys belong in this list too. */
export const SHORTCUTS: readonly Shortcut[] = [
  { keys: ['g', 'w'], label: 'Go to workflows', to: '/workflows' },
  { keys: ['g', 'i'], label: 'Go to what needs you (the inbox)', to: '/inbox' },
  { keys: ['g', 'k'], label: 'Go to knowledge', to: '/knowledge' },
  { keys: ['g', 'm'], label: 'Go to models', to: '/models' },
  { keys: ['g', 'b'], label: 'Go to my budget', to: '/budget' },
  { keys: ['g', 'a'], label: 'Go to admin', to: '/admin', adminOnly: true },
  { keys: ['n'], label: 'New run', to: '/runs/new' },
  { keys: ['/'], label: "Focus the page's search box" },
  { keys: ['?'], label: 'Show these shortcuts' },
  { keys: ['Esc'], label: 'Close this list' },
];

/** Typing into a field (or a page's own key handling, such as a menu) is never a shortcut. */
function typing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  return target.closest('input, textarea, select, [role="combobox"], [role="textbox"]') !== null;
}

/** The first search box on the page: a `type=search` input, or any field inside a `role=search` form. */
function searchBox(): HTMLElement | null {
  return document.querySelector<HTMLElement>(
    'main input[type="search"], main [role="search"] input, main [role="search"] textarea',
  );
}

/**
 * The console's keyboard shortcuts (the `SHORTCUTS` list) and the `?` overlay listing them. Keys with Ctrl, Alt or
 * Meta are the browser's; keys typed into a field are the field's. A `g` waits for the next key, whatever it is.
 */
export function KeyboardShortcuts({ isAdmin }: { isAdmin: boolean }) {
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  const available = useMemo(() => SHORTCUTS.filter((s) => isAdmin || !s.adminOnly), [isAdmin]);

  useEffect(() => {
    let prefix: string | null = null;
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      if (typing(event.target) || dialog.current?.open) return;
      const key = event.key;
      const typed = prefix ? [prefix, key] : [key];
      prefix = null;
      if (typed.length === 1 && key === 'g') {
        prefix = 'g';
        return;
      }
      if (typed.length === 1 && key === '?') {
        event.preventDefault();
        setOpen(true);
        return;
      }
      if (typed.length === 1 && key === '/') {
        const box = searchBox();
        if (box) {
          event.preventDefault();
          box.focus();
        }
        return;
      }
      const match = available.find((s) => s.to && s.keys.join(' ') === typed.join(' '));
      if (match?.to) {
        event.preventDefault();
        void navigate(match.to);
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [available, navigate]);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    // showModal makes the rest of the page inert and gives Escape to the dialog (its `close` event syncs the state).
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);

  return (
    <dialog ref={dialog} className="shortcuts" aria-labelledby="shortcuts-title" onClose={() => setOpen(false)}>
      <h2 id="shortcuts-title">Keyboard shortcuts</h2>
      <dl>
        {available.map((s) => (
          <div key={s.keys.join(' ')} className="shortcut">
            <dt>
              {s.keys.map((k, i) => (
                <span key={i}>
                  {i > 0 ? ' then ' : ''}
                  <kbd>{k}</kbd>
                </span>
              ))}
            </dt>
            <dd>{s.label}</dd>
          </div>
        ))}
      </dl>
      <p className="hint">Shortcuts are off while you type in a field.</p>
      <form method="dialog">
        <button type="submit">Close</button>
      </form>
    </dialog>
  );
}
