// The ops CLI refuses to start, as the server does, when production has no DATA_ENCRYPTION_KEY
// (issue 43 item 12): even users:grant-operator opens the database, whose start-up seals any NIK or
// photo still in clear, and a command may read or write sealed data, which only the server's own key
// opens; a key made up on the spot would seal new data that the server then cannot read. So the CLI
// still refuses, and says where the key is (decision 0064).

const WHERE_THE_KEY_IS = [
  "The ops CLI opens the store's database and reads or seals NIKs and KTP photos with the server's key, so it needs the same DATA_ENCRYPTION_KEY the server runs with (never a new one: what the old key sealed would not open).",
  "Run it where the server's settings already are:",
  "  docker exec <container> npm run ops -- <command>           (the container's environment has the key)",
  "  docker compose exec store1 npm run ops -- <command>        (compose: DATA_ENCRYPTION_KEY in .env)",
  "  kubectl exec deploy/toko -- npm run ops -- <command>       (Kubernetes: the Secret the Deployment reads)",
  "or give it the key from where it is kept (the password manager or secret store it was saved in):",
  "  DATA_ENCRYPTION_KEY=… npm run ops -- <command>;  docker run --rm --env-file store.env … npm run ops -- <command>",
];

/** The lines the CLI prints for a configuration it cannot start with: the reason, and for the key, where it is. */
export function opsConfigurationMessage(message: string): string[] {
  return message.includes("DATA_ENCRYPTION_KEY: must be set") ? [message, ...WHERE_THE_KEY_IS] : [message];
}
