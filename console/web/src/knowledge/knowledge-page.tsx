import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import type * as z from 'zod/mini';
import { call } from '../api';
import { ErrorNote, LoadProblem, Loading } from '../problem';
import { AtlasDomains, AtlasNode, AtlasScope, KbDoc, KbResults, type DocRef } from '../schemas';
import { Time } from '../time-tag';
import { AddDocument, EditDocument } from './kb-editor';
import { useResource } from '../use-resource';

/**
 * The knowledge hub: the atlas (sources and tags → documents → one node with its neighbours and links), the sources
 * panel (the node's full text) and search. What a person may read is filtered by the server by clearance; every
 * choice lives in the address, so a view can be shared.
 */
export function KnowledgePage() {
  const [params, setParams] = useSearchParams();
  const source = params.get('source');
  const tag = params.get('tag');
  const doc = params.get('doc');
  const query = params.get('q') ?? '';
  const domains = useResource('/api/v1/atlas/domains', AtlasDomains);
  const [adding, setAdding] = useState(false);
  const navigate = useNavigate();

  const link = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value === null) next.delete(key);
      else next.set(key, value);
    }
    return `?${next.toString()}`;
  };

  if (domains.error) return <LoadProblem error={domains.error} />;
  return (
    <section>
      <div className="page-head">
        <h1>Knowledge</h1>
        {adding ? null : (
          <button type="button" onClick={() => setAdding(true)}>
            New document
          </button>
        )}
      </div>
      {adding ? (
        <AddDocument
          onCancel={() => setAdding(false)}
          onAdded={(khId) => {
            setAdding(false);
            domains.reload();
            void navigate(link({ doc: khId }));
          }}
        />
      ) : null}
      <SearchBox
        key={query}
        initial={query}
        onSearch={(q) => setParams(new URLSearchParams(link({ q: q || null }).slice(1)), { replace: false })}
      />
      {query ? <SearchResults query={query} docLink={(kh) => link({ doc: kh })} /> : null}
      <div className="kb-grid">
        <nav aria-label="Atlas">
          <h2>Sources</h2>
          {domains.loading ? <Loading what="the atlas" /> : null}
          {domains.data?.sources.length === 0 ? <p className="empty">The hub has no documents yet.</p> : null}
          <ul className="plain">
            {(domains.data?.sources ?? []).map((s) => (
              <li key={s.source}>
                <Link
                  to={link({ source: s.source, tag: null })}
                  aria-current={source === s.source ? 'true' : undefined}
                >
                  {s.source}
                </Link>{' '}
                <span className="hint">{s.documents} docs</span>
              </li>
            ))}
          </ul>
          <h2>Tags</h2>
          <ul className="tags">
            {(domains.data?.tags ?? []).slice(0, 60).map((t) => (
              <li key={t.tag}>
                <Link to={link({ tag: t.tag, source: null })} aria-current={tag === t.tag ? 'true' : undefined}>
                  {t.tag}
                </Link>{' '}
                <span className="hint">{t.documents}</span>
              </li>
            ))}
          </ul>
        </nav>
        <div>
          {source || tag ? (
            <Scope source={source} tag={tag} docLink={(kh) => link({ doc: kh })} />
          ) : (
            <p className="empty">Pick a source or a tag.</p>
          )}
        </div>
        <div>{doc ? <NodeView khId={doc} docLink={(kh) => link({ doc: kh })} /> : null}</div>
      </div>
    </section>
  );
}

function SearchBox({ initial, onSearch }: { initial: string; onSearch: (q: string) => void }) {
  const [text, setText] = useState(initial);
  function submit(event: FormEvent) {
    event.preventDefault();
    onSearch(text.trim());
  }
  return (
    <form role="search" className="inline-form" onSubmit={submit}>
      <label htmlFor="kb-search">Search the hub</label>
      <input id="kb-search" type="search" value={text} onChange={(e) => setText(e.target.value)} />
      <button type="submit">Search</button>
    </form>
  );
}

function SearchResults({ query, docLink }: { query: string; docLink: (kh: string) => string }) {
  const [answer, setState] = useState<{ query: string; results?: z.infer<typeof KbResults>; error?: unknown }>({
    query: '',
  });
  const state = answer.query === query ? answer : { query };
  useEffect(() => {
    const controller = new AbortController();
    call('/api/v1/kb/query', KbResults, { method: 'POST', body: { query, k: 10 }, signal: controller.signal }).then(
      (results) => setState({ query, results }),
      (error: unknown) => {
        if (!controller.signal.aborted) setState({ query, error });
      },
    );
    return () => controller.abort();
  }, [query]);
  return (
    <section aria-labelledby="kb-results-title">
      <h2 id="kb-results-title">Results for “{query}”</h2>
      {state.error ? <ErrorNote error={state.error} /> : null}
      {!state.results && !state.error ? <Loading what="results" /> : null}
      {state.results?.results.length === 0 ? <p className="empty">Nothing matches.</p> : null}
      <ol className="results">
        {(state.results?.results ?? []).map((r) => (
          <li key={r.chunk_id}>
            <Link to={docLink(r.kh_id)}>{r.title ?? r.path}</Link>{' '}
            <span className="hint">
              {r.heading ?? ''} · {r.sensitivity}
            </span>
            <p>{r.snippet}</p>
          </li>
        ))}
      </ol>
    </section>
  );
}

interface ScopePages {
  key: string;
  documents: DocRef[];
  next: string | null;
  error?: unknown;
}

function scopePath(source: string | null, tag: string | null, cursor: string | null): string {
  const query = new URLSearchParams({ limit: '50' });
  if (source) query.set('source', source);
  if (tag) query.set('tag', tag);
  if (cursor) query.set('cursor', cursor);
  return `/api/v1/atlas/scope?${query.toString()}`;
}

function Scope({
  source,
  tag,
  docLink,
}: {
  source: string | null;
  tag: string | null;
  docLink: (kh: string) => string;
}) {
  const key = `${source ?? ''}|${tag ?? ''}`;
  const [pages, setPages] = useState<ScopePages>({ key: '', documents: [], next: null });
  const [loadingMore, setLoadingMore] = useState(false);
  const current = pages.key === key ? pages : null;

  useEffect(() => {
    const controller = new AbortController();
    call(scopePath(source, tag, null), AtlasScope, { signal: controller.signal }).then(
      (page) => setPages({ key, documents: page.documents, next: page.next_cursor }),
      (error: unknown) => {
        if (!controller.signal.aborted) setPages({ key, documents: [], next: null, error });
      },
    );
    return () => controller.abort();
  }, [key, source, tag]);

  function more(cursor: string) {
    setLoadingMore(true);
    call(scopePath(source, tag, cursor), AtlasScope)
      .then(
        (page) =>
          setPages((p) =>
            p.key === key ? { key, documents: [...p.documents, ...page.documents], next: page.next_cursor } : p,
          ),
        (error: unknown) => setPages((p) => ({ ...p, error })),
      )
      .finally(() => setLoadingMore(false));
  }

  return (
    <section aria-labelledby="scope-title">
      <h2 id="scope-title">{source ? `Source ${source}` : `Tag ${tag ?? ''}`}</h2>
      {current?.error ? <ErrorNote error={current.error} /> : null}
      {!current ? <Loading what="documents" /> : null}
      {current && !current.error && current.documents.length === 0 ? (
        <p className="empty">No documents you may read.</p>
      ) : null}
      <ul className="plain">
        {(current?.documents ?? []).map((d) => (
          <li key={d.kh_id}>
            <Link to={docLink(d.kh_id)}>{d.title ?? d.path}</Link> <span className="hint">{d.path}</span>
          </li>
        ))}
      </ul>
      {current?.next ? (
        <button type="button" onClick={() => more(current.next!)} disabled={loadingMore}>
          More documents
        </button>
      ) : null}
    </section>
  );
}

function NodeView({ khId, docLink }: { khId: string; docLink: (kh: string) => string }) {
  const node = useResource(`/api/v1/atlas/node/${encodeURIComponent(khId)}`, AtlasNode);
  const doc = useResource(`/api/v1/kb/doc/${encodeURIComponent(khId)}`, KbDoc);
  const [editing, setEditing] = useState<string | null>(null);
  if (node.error) return <ErrorNote error={node.error} />;
  if (!node.data) return <Loading what="the document" />;
  const d = node.data.document;
  return (
    <article aria-labelledby="node-title">
      <h2 id="node-title">{d.title ?? d.path}</h2>
      <p className="hint">
        {d.path} · {d.sensitivity} · {d.source}{' '}
        {d.updated_at ? (
          <>
            · updated <Time iso={d.updated_at} />
          </>
        ) : null}
      </p>
      {node.data.neighbours.length > 0 ? (
        <>
          <h3>Related</h3>
          <ul className="plain">
            {node.data.neighbours.map((n) => (
              <li key={n.kh_id}>
                <Link to={docLink(n.kh_id)}>{n.title ?? n.path}</Link>{' '}
                <span className="hint">{n.similarity.toFixed(2)}</span>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {node.data.links.outgoing.length + node.data.links.incoming.length > 0 ? (
        <>
          <h3>Links</h3>
          <ul className="plain">
            {[
              ...node.data.links.outgoing.map((l) => ({ ...l, dir: 'links to' })),
              ...node.data.links.incoming.map((l) => ({ ...l, dir: 'linked from' })),
            ].map((l, i) => (
              <li key={i}>
                {l.dir} {l.kh_id ? <Link to={docLink(l.kh_id)}>{l.title ?? l.path ?? l.kh_id}</Link> : (l.path ?? '?')}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <section aria-labelledby="source-title" className="sources-panel">
        <h3 id="source-title">Source text</h3>
        {doc.data?.source_url ? (
          <p>
            <a href={doc.data.source_url} target="_blank" rel="noreferrer">
              Open the original
            </a>
          </p>
        ) : null}
        {doc.error ? <ErrorNote error={doc.error} /> : null}
        {doc.data && editing === khId ? (
          <EditDocument
            khId={khId}
            markdown={doc.data.markdown}
            contentHash={doc.data.content_hash}
            onCancel={() => setEditing(null)}
            onSaved={() => {
              setEditing(null);
              doc.reload();
              node.reload();
            }}
          />
        ) : doc.data ? (
          <>
            <button type="button" className="secondary" onClick={() => setEditing(khId)}>
              Edit<span className="visually-hidden"> {d.title ?? d.path}</span>
            </button>
            <pre className="file-text">{doc.data.markdown}</pre>
          </>
        ) : (
          <Loading what="the text" />
        )}
      </section>
    </article>
  );
}
