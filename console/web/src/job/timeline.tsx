import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, useState } from 'react';
import type { AgentEvent } from '../schemas';
import { Time } from '../time-tag';
import { describeEvent } from './derive';
import { virtualRowStyle } from '../virtual-row';

const ROW_HEIGHT = 44;

/**
 * The live timeline: only the rows in view are in the DOM, so a job of thousands of events scrolls and streams
 * smoothly. It follows the newest event while the person is at the bottom, and stops following when they scroll up.
 */
export function Timeline({ events }: { events: AgentEvent[] }) {
  const scroller = useRef<HTMLDivElement>(null);
  const [follow, setFollow] = useState(true);
  // No React Compiler here, so the virtualizer's mutable instance is fine (the rule warns for compiled code).
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: events.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
  });

  useEffect(() => {
    if (follow && events.length > 0) virtualizer.scrollToIndex(events.length - 1, { align: 'end' });
  }, [events.length, follow, virtualizer]);

  return (
    <div className="timeline-box">
      <div className="timeline-head">
        <h2 id="timeline-title">Timeline</h2>
        <span className="hint" aria-live="polite">
          {events.length} event{events.length === 1 ? '' : 's'}
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
            const event = events[item.index]!;
            const { title, detail, known } = describeEvent(event);
            return (
              <li
                key={event.sequence}
                data-sequence={event.sequence}
                data-kind={event.kind}
                className={`event kind-${known ? event.kind : 'unknown'}`}
                aria-setsize={events.length}
                aria-posinset={item.index + 1}
                style={virtualRowStyle(ROW_HEIGHT, item.start)}
              >
                <span className="seq">#{event.sequence}</span>
                <span className="when">
                  <Time iso={event.occurred_at} short />
                </span>
                <span className="role">{event.agent_role}</span>
                <span className="what">
                  <strong>{title}</strong>
                  {detail ? <span className="detail"> {detail}</span> : null}
                </span>
              </li>
            );
          })}
        </ol>
      </div>
    </div>
  );
}
