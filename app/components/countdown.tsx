import { useEffect, useState } from "react";
import { formatCountdown } from "~/lib/time";

/**
 * Time left until `until`, rendered by the server as it is at render time and ticking each second
 * once JavaScript runs. Calls onDone when it reaches zero.
 */
export function Countdown({
  until,
  renderedAt,
  onDone,
  format = formatCountdown,
}: {
  until: string;
  renderedAt: string;
  onDone?: () => void;
  /** How the time left is written (default h:mm:ss / m:ss). */
  format?: (ms: number) => string;
}) {
  const deadline = Date.parse(until);
  const [now, setNow] = useState(() => Date.parse(renderedAt));
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => {
      const t = Date.now();
      setNow(t);
      if (t >= deadline) {
        clearInterval(timer);
        onDone?.();
      }
    }, 1000);
    return () => clearInterval(timer);
  }, [deadline, onDone]);
  return <time dateTime={until}>{format(deadline - now)}</time>;
}
