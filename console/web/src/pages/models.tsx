import { LoadProblem, Loading } from '../problem';
import { ModelList, type ModelRow } from '../schemas';
import { useResource } from '../use-resource';
import { ScrollTable } from '../scroll-table';

export function ModelsPage() {
  const models = useResource('/api/v1/models', ModelList);
  if (models.error) return <LoadProblem error={models.error} />;
  return (
    <section>
      <h1>Models</h1>
      <p className="hint">
        Every model Keel can route to. A model answers only when its provider is <em>configured</em> (its key is set)
        and the team <em>allows</em> it; free models show their live quota.
      </p>
      {models.loading ? <Loading what="models" /> : null}
      {models.data ? (
        <ScrollTable
          columns={['Model', 'Provider', 'Tier', 'Price / 1k tokens', 'Configured', 'Allowed', 'Free quota used']}
        >
          {models.data.models.map((m) => (
            <tr key={`${m.provider}/${m.model}`}>
              <th scope="row">
                {m.display_name}
                <br />
                <code className="hint">{m.model}</code>
              </th>
              <td>{m.provider}</td>
              <td>{m.cost_tier}</td>
              <td>{m.pricing_per_1k ? `$${m.pricing_per_1k.input} in / $${m.pricing_per_1k.output} out` : 'free'}</td>
              <td>{m.configured ? 'yes' : 'no'}</td>
              <td>{m.allowed ? 'yes' : 'no'}</td>
              <td>
                <Quota row={m} />
              </td>
            </tr>
          ))}
        </ScrollTable>
      ) : null}
    </section>
  );
}

function Quota({ row }: { row: ModelRow }) {
  if (!row.quota) return <span>—</span>;
  return (
    <span>
      {Object.entries(row.quota)
        .map(([window, q]) => `${window} ${q.used}/${q.limit}`)
        .join(' · ')}
    </span>
  );
}
