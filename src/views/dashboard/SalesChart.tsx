import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useRef } from 'react';
import type { ActorRefFrom } from 'xstate';
import {
  type SalesChartView as ChartView,
  connectSalesChart,
  type salesChartMachine,
} from '../../../machines/salesChart';
import { useApp } from '../AppContext';
import { Button } from '../components';
import './chart.css';

/** A chart above the Sales table ("sales") or the payouts table ("funds"), its own machine per mount. */
export function SalesChart({
  machine,
  storefrontId,
  kind,
}: {
  machine: typeof salesChartMachine;
  storefrontId: string;
  kind: 'sales' | 'funds';
}) {
  const { inspect } = useApp();
  const actor = useActorRef(machine, { input: { storefrontId, kind }, inspect });
  return <SalesChartView actor={actor} />;
}

/**
 * The figures three ways: the plot (for the eye; hidden from assistive technology), one sentence
 * that says what it shows, and the same figures as a table behind "Show the figures".
 */
export function SalesChartView({ actor }: { actor: ActorRefFrom<typeof salesChartMachine> }) {
  const view = connectSalesChart(
    useSelector(actor, (s) => s),
    (event) => actor.send(event),
  );
  return (
    <section className="vt-card vt-chart" aria-label={view.title} aria-busy={view.busy || undefined}>
      <header className="vt-chart__header">
        <h2>{view.title}</h2>
        <div className="vt-chart__controls">
          <fieldset className="vt-segmented">
            <legend className="vt-visually-hidden">Period</legend>
            {view.periods.map((p) => (
              <Button
                key={p.days}
                size="sm"
                variant={p.selected ? 'primary' : 'secondary'}
                {...view.getPeriodButtonProps(p.days)}
              >
                {p.label}
              </Button>
            ))}
          </fieldset>
          {view.showBucket && (
            <fieldset className="vt-segmented">
              <legend className="vt-visually-hidden">Group by</legend>
              {(['day', 'week'] as const).map((b) => (
                <Button
                  key={b}
                  size="sm"
                  variant={view.bucket === b ? 'primary' : 'secondary'}
                  {...view.getBucketButtonProps(b)}
                >
                  {b === 'day' ? 'By day' : 'By week'}
                </Button>
              ))}
            </fieldset>
          )}
        </div>
      </header>
      {view.failed ? (
        <div role="alert">
          <p>{view.error}</p>
          {view.canRetry && <Button {...view.getRetryButtonProps()}>Try again</Button>}
        </div>
      ) : (
        <>
          <Plot view={view} />
          <p className="vt-chart__summary" aria-live="polite">
            {view.summary}
          </p>
          <details className="vt-chart__figures">
            <summary>Show the figures</summary>
            {view.table.rows.length === 0 ? (
              <p className="vt-muted">Nothing in this period.</p>
            ) : (
              <table className="vt-table">
                <caption className="vt-visually-hidden">{view.table.caption}</caption>
                <thead>
                  <tr>
                    {view.table.columns.map((c) => (
                      <th key={c} scope="col">
                        {c}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {view.table.rows.map((row) => (
                    <tr key={row.join('|')}>
                      {row.map((cell, i) => (
                        <td key={view.table.columns[i]}>{cell}</td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </details>
        </>
      )}
    </section>
  );
}

/** The uPlot canvas, drawn after render; uPlot loads with the first chart, not with the app. */
function Plot({ view }: { view: ChartView }) {
  const box = useRef<HTMLDivElement>(null);
  const { data, series, marks } = view;
  useEffect(() => {
    const el = box.current;
    // uPlot needs a canvas and matchMedia (it follows the pixel ratio): a page without them (a
    // DOM emulation) gets the sentence and the table only.
    if (!el || !data || typeof window.matchMedia !== 'function') return;
    let plot: { destroy(): void } | undefined;
    let gone = false;
    void Promise.all([import('uplot'), import('uplot/dist/uPlot.min.css')]).then(([{ default: UPlot }]) => {
      if (gone) return;
      const color = getComputedStyle(el).getPropertyValue('--color-primary').trim() || '#5b3df5';
      const muted = getComputedStyle(el).getPropertyValue('--color-text-muted').trim() || '#666';
      plot = new UPlot(
        {
          width: Math.max(280, el.clientWidth),
          height: 220,
          scales: { x: { time: true } },
          axes: [
            {},
            { scale: series[0]!.kind === 'bars' ? 'count' : 'money' },
            ...(series[1] ? [{ scale: 'money', side: 1 as const, grid: { show: false } }] : []),
          ],
          series: [
            {},
            ...series.map((s, i) => ({
              label: s.label,
              scale: s.kind === 'bars' ? 'count' : 'money',
              stroke: i === 0 ? color : muted,
              fill: s.kind === 'bars' ? `${color}55` : undefined,
              width: 2,
              paths: s.kind === 'bars' ? UPlot.paths.bars!({ size: [0.6, 40] }) : undefined,
            })),
          ],
          hooks: {
            draw: [
              (u) => {
                // Payout requests: a dashed line at the time each was made.
                const { ctx } = u;
                ctx.save();
                ctx.strokeStyle = muted;
                ctx.setLineDash([4, 4]);
                for (const m of marks) {
                  const x = u.valToPos(m.x, 'x', true);
                  ctx.beginPath();
                  ctx.moveTo(x, u.bbox.top);
                  ctx.lineTo(x, u.bbox.top + u.bbox.height);
                  ctx.stroke();
                }
                ctx.restore();
              },
            ],
          },
        },
        data as never,
        el,
      );
    });
    return () => {
      gone = true;
      plot?.destroy();
    };
  }, [data, series, marks]);
  return <div ref={box} className="vt-chart__plot" aria-hidden="true" />;
}
