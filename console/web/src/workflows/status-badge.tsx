import { stateName } from '../status-names';

export function StatusBadge({ status }: { status: string }) {
  const name = stateName(status);
  return <span className={`badge status-${name.replace(/[^a-z_]/g, '')}`}>{name}</span>;
}
