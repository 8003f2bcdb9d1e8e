import { scaleBand, scaleLinear } from "d3-scale";
import { area, line } from "d3-shape";
import { formatRupiah } from "~/lib/money";

// The back-office home's charts (issue 27), drawn on the server: d3-scale and d3-shape compute the
// scales, ticks and paths here, the page renders them as plain <svg> (charts.tsx). Nothing of d3
// reaches the browser, and the charts are there with JavaScript off.

export type Tick = { at: number; label: string };
export type Bar = { x: number; y: number; width: number; height: number; label: string; value: string };
export type ColumnChart = {
  kind: "columns";
  width: number;
  height: number;
  plot: { left: number; top: number; right: number; bottom: number };
  bars: Bar[];
  yTicks: Tick[];
  xTicks: Tick[];
  path?: undefined;
  areaPath?: undefined;
};
export type LineChart = {
  kind: "line";
  width: number;
  height: number;
  plot: { left: number; top: number; right: number; bottom: number };
  path: string;
  areaPath: string;
  points: { x: number; y: number; label: string; value: string }[];
  yTicks: Tick[];
  xTicks: Tick[];
};
export type RowChart = {
  kind: "rows";
  width: number;
  height: number;
  labelWidth: number;
  rows: { y: number; width: number; height: number; label: string; value: string }[];
};

// The viewBox: the cards are about this wide at 1280 px, so the 12 px text reads at about 12 px.
const WIDTH = 480;
const HEIGHT = 220;
/**
 * A phone's card (390 px screen) is about 330 px wide: each chart is also drawn this wide, and the
 * page shows that one there (issue 43). The desktop's chart, scaled down or scrolled sideways, lost
 * its y axis, its first date and the bars' counts.
 */
export const NARROW_WIDTH = 340;

/** A chart drawn for the desktop's card and for a phone's. */
export type ChartPair<T> = { wide: T; narrow: T };
export function bothWidths<T>(draw: (width: number) => T): ChartPair<T> {
  return { wide: draw(WIDTH), narrow: draw(NARROW_WIDTH) };
}

/**
 * Which days carry a date on the x axis: every fifth on the desktop, every seventh on a phone,
 * counted back from today so that today's date is always there and none crowds its neighbour.
 */
const labelledDay = (i: number, count: number, width: number) => (count - 1 - i) % (width < WIDTH ? 7 : 5) === 0;

/** '7 Mei' from '2026-05-07' (a WIB day): what the axis and the table say. */
export function dayLabel(day: string): string {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  return new Intl.DateTimeFormat("id-ID", { day: "numeric", month: "short", timeZone: "UTC" }).format(new Date(Date.UTC(y, m - 1, d)));
}

/** Rupiah on an axis: whole rupiah, shortened ('Rp12 jt', 'Rp850 rb') so the axis stays readable. */
export function axisRupiah(value: number): string {
  if (value >= 1_000_000_000) return `Rp${Math.round(value / 100_000_000) / 10} M`.replace(".", ",");
  if (value >= 1_000_000) return `Rp${Math.round(value / 100_000) / 10} jt`.replace(".", ",");
  if (value >= 1_000) return `Rp${Math.round(value / 1_000)} rb`;
  return formatRupiah(value);
}

const count = (n: number) => n.toLocaleString("id-ID");

/** One column per day (orders per day), the y axis in whole numbers, every fifth day labelled. */
export function dailyColumns(days: { day: string; value: number }[], width = WIDTH): ColumnChart {
  const plot = { left: 36, top: 12, right: width - 16, bottom: HEIGHT - 28 };
  const x = scaleBand<string>()
    .domain(days.map((d) => d.day))
    .range([plot.left, plot.right])
    .padding(0.2);
  const max = Math.max(1, ...days.map((d) => d.value));
  const y = scaleLinear().domain([0, max]).nice().range([plot.bottom, plot.top]);
  const yTicks = y
    .ticks(Math.min(5, max))
    .filter(Number.isInteger)
    .map((t) => ({ at: y(t), label: count(t) }));
  return {
    kind: "columns",
    width,
    height: HEIGHT,
    plot,
    bars: days.map((d) => ({
      x: x(d.day)!,
      y: y(d.value),
      width: x.bandwidth(),
      height: plot.bottom - y(d.value),
      label: dayLabel(d.day),
      value: count(d.value),
    })),
    yTicks,
    xTicks: days
      .filter((_, i) => labelledDay(i, days.length, width))
      .map((d) => ({ at: x(d.day)! + x.bandwidth() / 2, label: dayLabel(d.day) })),
  };
}

/** A line (with its area) per day for rupiah (paid revenue per day). */
export function dailyRupiahLine(days: { day: string; value: number }[], width = WIDTH): LineChart {
  const plot = { left: 64, top: 12, right: width - 24, bottom: HEIGHT - 28 };
  const x = scaleLinear()
    .domain([0, Math.max(1, days.length - 1)])
    .range([plot.left, plot.right]);
  // At least Rp1 jt high, so an empty month still has a readable axis.
  const y = scaleLinear()
    .domain([0, Math.max(1_000_000, ...days.map((d) => d.value))])
    .nice()
    .range([plot.bottom, plot.top]);
  const points = days.map((d, i) => ({ x: x(i), y: y(d.value), label: dayLabel(d.day), value: formatRupiah(d.value) }));
  return {
    kind: "line",
    width,
    height: HEIGHT,
    plot,
    path:
      line<{ x: number; y: number }>(
        (p) => p.x,
        (p) => p.y,
      )(points) ?? "",
    areaPath:
      area<{ x: number; y: number }>()
        .x((p) => p.x)
        .y0(plot.bottom)
        .y1((p) => p.y)(points) ?? "",
    points,
    yTicks: y.ticks(4).map((t) => ({ at: y(t), label: axisRupiah(t) })),
    xTicks: days
      .map((d, i) => ({ i, d }))
      .filter(({ i }) => labelledDay(i, days.length, width))
      .map(({ i, d }) => ({ at: x(i), label: dayLabel(d.day) })),
  };
}

/** Horizontal bars with their labels (orders by status, incentive decisions, top products). */
export function labelledRows(items: { label: string; value: number; display?: string }[], width = WIDTH): RowChart {
  const rowHeight = 26;
  // A phone's narrower chart gives the names a little less room and the bars much less.
  const labelWidth = width < WIDTH ? 150 : 190;
  const x = scaleLinear()
    .domain([0, Math.max(1, ...items.map((i) => i.value))])
    .range([0, width - labelWidth - 60]);
  const y = scaleBand<number>()
    .domain(items.map((_, i) => i))
    .range([0, items.length * rowHeight])
    .padding(0.25);
  return {
    kind: "rows",
    width,
    height: Math.max(rowHeight, items.length * rowHeight),
    labelWidth,
    rows: items.map((item, i) => ({
      y: y(i)!,
      width: x(item.value),
      height: y.bandwidth(),
      label: item.label,
      value: item.display ?? count(item.value),
    })),
  };
}
