// Prints the expected rating updates of cases.mjs, computed by the openskill package with its
// defaults (Plackett-Luce; mu 25, sigma 25/3, beta 25/6, tau 25/300, kappa 0.0001), as the JSON
// of fixture.json: `npm run generate` rewrites it (commit the result). The node test
// (fixture.test.mjs) checks that the committed fixture is what this prints.
import { rate, ordinal } from "openskill";
import { cases } from "./cases.mjs";

export function expected() {
  return {
    source: "openskill 5.0.1, rate() with its default options (Plackett-Luce)",
    cases: cases.map(({ name, players, ranks }) => {
      const after = rate(players.map((p) => [{ ...p }]), { rank: ranks }).map(([p]) => p);
      return {
        name,
        before: players.map(({ mu, sigma }) => ({ mu, sigma })),
        ranks,
        after: after.map(({ mu, sigma }) => ({ mu, sigma, ordinal: ordinal({ mu, sigma }) })),
      };
    }),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write(JSON.stringify(expected(), null, 2) + "\n");
}
