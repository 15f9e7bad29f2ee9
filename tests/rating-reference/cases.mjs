// The cases whose expected rating updates the openskill package computes (generate.mjs) and
// server/players/rating.cpp must reproduce (tests/server/rating_test.cpp reads fixture.json). Each
// case: the players' ratings before the game (mu, sigma) and their ranks (1 = first; equal
// ranks tie). Free-for-all only: every player is a team of one.
const fresh = { mu: 25, sigma: 25 / 3 };

export const cases = [
  { name: "two players, first wins", players: [fresh, fresh], ranks: [1, 2] },
  { name: "two players, second wins", players: [fresh, fresh], ranks: [2, 1] },
  { name: "two players tie", players: [fresh, fresh], ranks: [1, 1] },
  { name: "three players in order", players: [fresh, fresh, fresh], ranks: [1, 2, 3] },
  { name: "three players, the last two tie", players: [fresh, fresh, fresh], ranks: [1, 2, 2] },
  { name: "four players, winner and three tied losers", players: [fresh, fresh, fresh, fresh],
    ranks: [1, 2, 2, 2] },
  { name: "four players, ranks out of seat order", players: [fresh, fresh, fresh, fresh],
    ranks: [3, 1, 4, 2] },
  { name: "five players, two share the win", players: [fresh, fresh, fresh, fresh, fresh],
    ranks: [1, 1, 3, 3, 3] },
  { name: "six players in order", players: [fresh, fresh, fresh, fresh, fresh, fresh],
    ranks: [1, 2, 3, 4, 5, 6] },
  { name: "six players, everyone ties", players: [fresh, fresh, fresh, fresh, fresh, fresh],
    ranks: [1, 1, 1, 1, 1, 1] },
  { name: "two players, the strong one loses",
    players: [{ mu: 32.5, sigma: 2.1 }, { mu: 21.0, sigma: 6.4 }], ranks: [2, 1] },
  { name: "three players with different priors",
    players: [{ mu: 30.2, sigma: 3.3 }, { mu: 18.7, sigma: 7.9 }, { mu: 25.0, sigma: 1.2 }],
    ranks: [2, 3, 1] },
  { name: "four players with different priors and a tie",
    players: [{ mu: 27.1, sigma: 4.4 }, { mu: 22.9, sigma: 5.5 }, { mu: 35.0, sigma: 0.9 },
      { mu: 12.3, sigma: 8.1 }], ranks: [2, 1, 2, 4] },
  { name: "five players with different priors",
    players: [{ mu: 40.0, sigma: 1.5 }, { mu: 10.0, sigma: 8.0 }, { mu: 25.0, sigma: 4.0 },
      { mu: 29.5, sigma: 2.2 }, { mu: 20.0, sigma: 6.0 }], ranks: [5, 1, 2, 3, 4] },
  { name: "six players with different priors and ties",
    players: [{ mu: 26.0, sigma: 3.0 }, { mu: 24.0, sigma: 3.5 }, { mu: 31.0, sigma: 2.5 },
      { mu: 19.0, sigma: 7.0 }, { mu: 25.0, sigma: 25 / 3 }, { mu: 22.0, sigma: 0.5 }],
    ranks: [1, 3, 3, 6, 1, 5] },
  { name: "a very certain player (sigma near its floor)",
    players: [{ mu: 25.0, sigma: 0.05 }, { mu: 25.0, sigma: 0.05 }, { mu: 25.0, sigma: 25 / 3 }],
    ranks: [3, 2, 1] },
];
