export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge status-${status.replace(/[^a-z_]/g, '')}`}>{status}</span>;
}
