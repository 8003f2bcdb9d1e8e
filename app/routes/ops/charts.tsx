import type { ChartPair, ColumnChart, LineChart, RowChart } from "./charts.server";

// Renders the charts computed on the server (charts.server.ts) as plain SVG: visible with
// JavaScript off, scaling with the card's width. Each chart is an image with a title for screen
// readers, next to a table of the same figures (DataTable) that screen readers read instead.
// Each is drawn twice, for the desktop's card and for a phone's (issue 43); the stylesheet shows
// the one that fits (a hidden one is out of the accessibility tree as well).

type AnyChart = ColumnChart | LineChart | RowChart;

export function Chart({ id, title, charts }: { id: string; title: string; charts: ChartPair<AnyChart> }) {
  return (
    <div className="ops-chart-wrap">
      <ChartSvg id={id} testId={`chart-${id}`} className="ops-chart ops-chart-wide" title={title} chart={charts.wide} />
      <ChartSvg
        id={`${id}-narrow`}
        testId={`chart-${id}-narrow`}
        className="ops-chart ops-chart-narrow"
        title={title}
        chart={charts.narrow}
      />
    </div>
  );
}

function ChartSvg({
  id,
  testId,
  className,
  title,
  chart,
}: {
  id: string;
  testId: string;
  className: string;
  title: string;
  chart: AnyChart;
}) {
  return (
    <svg
      className={className}
      viewBox={`0 0 ${chart.width} ${chart.height}`}
      role="img"
      aria-labelledby={`${id}-title`}
      data-testid={testId}
    >
      <title id={`${id}-title`}>{title}</title>
      {chart.kind === "rows" ? <Rows id={id} chart={chart} /> : <Axes chart={chart} />}
      {chart.kind === "columns"
        ? chart.bars.map((bar) => (
            <rect key={bar.label} className="ops-chart-bar" x={bar.x} y={bar.y} width={bar.width} height={bar.height} data-day={bar.label}>
              <title>{`${bar.label}: ${bar.value}`}</title>
            </rect>
          ))
        : null}
      {chart.kind === "line" ? (
        <>
          <path className="ops-chart-area" d={chart.areaPath} />
          <path className="ops-chart-line" d={chart.path} />
          {chart.points.map((p) => (
            <circle key={p.label} className="ops-chart-dot" cx={p.x} cy={p.y} r={2.5} data-day={p.label}>
              <title>{`${p.label}: ${p.value}`}</title>
            </circle>
          ))}
        </>
      ) : null}
    </svg>
  );
}

function Axes({ chart }: { chart: ColumnChart | LineChart }) {
  const { plot } = chart;
  return (
    <g className="ops-chart-axes">
      {chart.yTicks.map((t) => (
        <g key={t.label}>
          <line x1={plot.left} x2={plot.right} y1={t.at} y2={t.at} className="ops-chart-grid" />
          <text x={plot.left - 6} y={t.at} dy="0.32em" textAnchor="end">
            {t.label}
          </text>
        </g>
      ))}
      <line x1={plot.left} x2={plot.right} y1={plot.bottom} y2={plot.bottom} className="ops-chart-baseline" />
      {chart.xTicks.map((t) => (
        <text key={t.label} x={t.at} y={plot.bottom + 18} textAnchor="middle">
          {t.label}
        </text>
      ))}
    </g>
  );
}

/** About the widest a character of the 12-unit label font runs on average: how many fit the column. */
const LABEL_CHAR_WIDTH = 7;

/**
 * The labels start at the chart's left edge and are clipped at their column (issue 38): drawn from
 * their right end, a name wider than the column ran out past the left edge and lost its first
 * letters ("(ompor Induksi…"). Long names are shortened with '…'; the whole name is the row's title.
 */
function Rows({ id, chart }: { id: string; chart: RowChart }) {
  const labelColumn = chart.labelWidth - 8;
  const maxChars = Math.floor(labelColumn / LABEL_CHAR_WIDTH);
  return (
    <g className="ops-chart-axes">
      <clipPath id={`${id}-labels`}>
        <rect x={0} y={0} width={labelColumn} height={chart.height} />
      </clipPath>
      {chart.rows.map((row) => (
        <g key={row.label}>
          <title>{`${row.label}: ${row.value}`}</title>
          <text x={0} y={row.y + row.height / 2} dy="0.32em" clipPath={`url(#${id}-labels)`} data-testid="chart-row-label">
            {row.label.length > maxChars ? `${row.label.slice(0, maxChars - 1)}…` : row.label}
          </text>
          <rect className="ops-chart-bar" x={chart.labelWidth} y={row.y} width={Math.max(row.width, 1)} height={row.height} />
          <text x={chart.labelWidth + Math.max(row.width, 1) + 6} y={row.y + row.height / 2} dy="0.32em">
            {row.value}
          </text>
        </g>
      ))}
    </g>
  );
}

/** The chart's figures as a table, for screen readers (visually hidden). */
export function DataTable({ caption, head, rows }: { caption: string; head: [string, string]; rows: [string, string][] }) {
  // The hiding box is a <div>: a table grows to its rows whatever its height, and the 30 days' rows,
  // though clipped out of sight, made the page taller than its content (issue 38: the page's grey
  // stopped short of the bottom).
  return (
    <div className="ops-sr-only">
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{head[0]}</th>
            <th scope="col">{head[1]}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([label, value]) => (
            <tr key={label}>
              <th scope="row">{label}</th>
              <td>{value}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
