import { useLoaderData } from "react-router";

// No generated `+types` import: the folder is outside the project's typegen and tsc (tsconfig.json).
export function meta() {
  return [{ title: "Minimal React Router app" }, { name: "description", content: "The benchmark's floor: one route, ten list items." }];
}

export function loader() {
  return { items: Array.from({ length: 10 }, (_, i) => `Item ${i + 1}`) };
}

export default function Home() {
  const { items } = useLoaderData<typeof loader>();
  return (
    <main>
      <h1>Minimal React Router app</h1>
      <ul>
        {items.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
    </main>
  );
}
