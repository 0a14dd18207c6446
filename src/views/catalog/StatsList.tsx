import type { StatText } from '#domain/statsView';

/** Sales figures as a list of label and value (domain/statsView.ts makes the texts). */
export function StatsList({
  stats,
  label,
  className,
}: {
  stats: StatText[];
  label: string;
  className?: string;
}) {
  return (
    <dl className={className ? `vt-stats ${className}` : 'vt-stats'} aria-label={label}>
      {stats.map((stat) => (
        <div key={stat.label}>
          <dt>{stat.label}</dt>
          <dd>{stat.value}</dd>
        </div>
      ))}
    </dl>
  );
}
