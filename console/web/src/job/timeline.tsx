import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { JobEvent } from './events';
import { Time } from '../time-tag';
import { FOLDED_KINDS } from './derive';
import { describeEvent, type NameOf } from './describe';
import { eventSearch } from './step-drawer';
import { virtualRowStyle } from '../virtual-row';

const ROW_HEIGHT = 44;

/**
 * The live timeline: only the rows in view are in the DOM, so a job of thousands of events scrolls and streams
 * smoothly. It follows the newest event while the person is at the bottom, and stops following when they scroll up.
 * A run's lifecycle and cost rows (`node_*`, `budget_consumed`) are folded into its level run (the step drawer lists
 * them); every other row opens in the drawer, whole.
 */
export function Timeline({ events, nameOf }: { events: JobEvent[]; nameOf?: NameOf }) {
  const scroller = useRef<HTMLDivElement>(null);
  const [follow, setFollow] = useState(true);
  const shown = useMemo(() => events.filter((e) => !(e.known && FOLDED_KINDS.has(e.kind))), [events]);
  const folded = events.length - shown.length;
  // No React Compiler here, so the virtualizer's mutable instance is fine (the rule warns for compiled code).
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: shown.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
  });

  useEffect(() => {
    if (follow && shown.length > 0) virtualizer.scrollToIndex(shown.length - 1, { align: 'end' });
  }, [shown.length, follow, virtualizer]);

  return (
    <div className="timeline-box">
      <div className="timeline-head">
        <h2 id="timeline-title">Timeline</h2>
        <span className="hint" aria-live="polite">
          {events.length} event{events.length === 1 ? '' : 's'}
          {folded > 0 ? ` (${folded} lifecycle and cost rows folded into their level runs)` : ''}
        </span>
        <label className="choice">
          <input type="checkbox" checked={follow} onChange={(e) => setFollow(e.target.checked)} />
          Follow newest
        </label>
      </div>
      {events.length === 0 ? <p className="empty">No events yet: the job is queued or starting.</p> : null}
      <div
        ref={scroller}
        className="timeline"
        role="region"
        aria-labelledby="timeline-title"
        tabIndex={0}
        onWheel={(e) => {
          if (e.deltaY < 0) setFollow(false);
        }}
      >
        <ol style={{ height: virtualizer.getTotalSize(), position: 'relative' }} aria-label="Events">
          {virtualizer.getVirtualItems().map((item) => {
            const event = shown[item.index]!;
            const { title, detail, known, tone } = describeEvent(event, nameOf);
            return (
              <li
                key={event.sequence}
                data-sequence={event.sequence}
                data-kind={event.kind}
                className={`event kind-${known ? event.kind : 'unknown'} tone-${tone}`}
                aria-setsize={shown.length}
                aria-posinset={item.index + 1}
                style={virtualRowStyle(ROW_HEIGHT, item.start)}
              >
                <span className="seq">#{event.sequence}</span>
                <span className="when">
                  <Time iso={event.occurred_at} short />
                </span>
                <span className="role">{event.agent_role}</span>
                <Link className="what" to={eventSearch(event.sequence)} title={detail ? `${title}: ${detail}` : title}>
                  <strong>{title}</strong>
                  {detail ? <span className="detail"> {detail}</span> : null}
                </Link>
              </li>
            );
          })}
        </ol>
      </div>
    </div>
  );
}
