// Placeholder while this screen is being built.
export default function Screen() {
  return <p>search</p>;
}
