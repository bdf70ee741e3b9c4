import { useId, useRef, type ReactNode, type ToggleEvent } from 'react';
import './row-actions.css';

export interface RowAction {
  label: string;
  onSelect: () => void;
}

/**
 * A row's less frequent actions behind one quiet button. The list is a popover (the browser's top layer): it is not
 * clipped by the virtualised row it belongs to, and the browser closes it on Escape or a click elsewhere. Its items
 * are plain buttons in tab order (the disclosure pattern), so no roving focus has to be hand-written.
 */
export function RowActions({
  label,
  actions,
  children,
}: {
  label: string;
  actions: RowAction[];
  children?: ReactNode;
}) {
  const id = useId();
  const button = useRef<HTMLButtonElement>(null);
  const popover = useRef<HTMLDivElement>(null);

  // Placed beside its button when it opens, flipped up near the bottom and kept inside the viewport's width.
  function place(event: ToggleEvent<HTMLDivElement>) {
    const open = event.newState === 'open';
    const target = button.current;
    const menu = popover.current;
    if (open && target && menu) {
      const at = target.getBoundingClientRect();
      const width = menu.offsetWidth;
      const height = menu.offsetHeight;
      const left = Math.max(8, Math.min(at.right - width, window.innerWidth - width - 8));
      const below = at.bottom + 4;
      const top = below + height > window.innerHeight - 8 ? Math.max(8, at.top - height - 4) : below;
      menu.style.left = `${left}px`;
      menu.style.top = `${top}px`;
      menu.querySelector('button')?.focus();
    }
    if (!open && document.activeElement === document.body) target?.focus();
  }

  return (
    <>
      <button
        ref={button}
        type="button"
        className="row-actions-button"
        popoverTarget={id}
        aria-haspopup="true"
        aria-label={label}
        title={label}
      >
        <span aria-hidden="true">⋯</span>
      </button>
      <div ref={popover} id={id} popover="auto" className="row-actions-menu" onToggle={place} aria-label={label}>
        {children}
        {actions.map((action) => (
          <button
            key={action.label}
            type="button"
            onClick={() => {
              popover.current?.hidePopover();
              action.onSelect();
            }}
          >
            {action.label}
          </button>
        ))}
      </div>
    </>
  );
}
