import type { Route } from "./+types/home";
import { VerificationPrompt } from "~/components/account-verification";

// Placeholder while the catalogue (issue 3) is built; keeps the verification flow of issue 2.
export function loader({ request }: Route.LoaderArgs) {
  const code = new URL(request.url).searchParams.get("verificationCode");
  return { verificationCode: code && code.length <= 200 ? code : null };
}

export default function Home({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <p>Beranda</p>
      {loaderData.verificationCode ? <VerificationPrompt code={loaderData.verificationCode} /> : null}
    </>
  );
}
