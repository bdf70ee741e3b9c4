import { formatClock, formatDateTime, viewerZone } from './time';

export function Time({ iso, short = false }: { iso: string | null | undefined; short?: boolean }) {
  if (!iso) return <span>—</span>;
  return (
    <time dateTime={iso} title={`${iso} (shown in ${viewerZone})`}>
      {short ? formatClock(iso) : formatDateTime(iso)}
    </time>
  );
}
