import { data } from "react-router";

// The catch-all route: unknown paths answer 404 and the root error boundary shows 'Page Not Found'.
export function loader() {
  throw data("Not Found", { status: 404 });
}

export function action() {
  throw data("Not Found", { status: 404 });
}

export default function NotFound() {
  return null;
}
