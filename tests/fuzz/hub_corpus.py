#!/usr/bin/env python3
"""Writes the seed corpus of hub_fuzzer (tests/fuzz/corpus/hub/): programs of operations in
the byte format hub_fuzzer.cpp decodes (docs/fuzzing.md describes it).

    tests/fuzz/hub_corpus.py tests/fuzz/corpus/hub

Each program is a session as real clients would have it: sign up, sign in, create and join
games, play (autoplay: the client offered more than "concede" picks an action), undo, chat,
concede, the HTTP API, lost connections and a server restart. Keep the operation codes in
step with Harness::run in hub_fuzzer.cpp.
"""
import json
import os
import sys

CONNECT, SIGNUP, AUTH, RAW, CREATE, GAME, PLAY, UNDO, API, CLOSE, RESTART, AUTOPLAY, MISC = \
    range(13)
# op_game: the message type is (pick & 7) % 6; 0x08 adds "invite", 0x10 makes it the real one,
# 0x20 (join) reads a seat.
JOIN, LEAVE, START, WATCH, UNWATCH, CHAT = range(6)
WITH_INVITE = 0x08 | 0x10
# op_api: what % 8
API_GAMES, API_MY_GAMES, API_GAME, API_REPLAY, API_REPLAY_SEAT, API_GAME_INVITE = range(6)
# op_misc: pick % 6
PING, LOBBY_SUBSCRIBE, LOBBY_UNSUBSCRIBE, MY_GAMES, NONSENSE_TYPE = range(5)
NO_BREAK = 0  # maybe_break: below 0xc0 leaves the message as it is


class Program:
    def __init__(self, seed):
        self.out = bytearray([seed])

    def op(self, *values):
        self.out.extend(values)
        return self

    def text(self, s):
        data = s.encode()
        assert len(data) < 256
        return self.op(len(data), *data)

    def connect(self, c):
        return self.op(CONNECT, c)

    def signup(self, c, name):
        return self.op(SIGNUP, c).text(name).op(0)

    def auth(self, c, how=0):
        return self.op(AUTH, c, how)

    def raw(self, c, message):
        data = (message if isinstance(message, str) else json.dumps(message)).encode()
        return self.op(RAW, c, len(data) >> 8, len(data) & 0xff, *data)

    def create(self, c, seats=2, victory=0, mix=0, independent=False, private=False, seat=None):
        flags = victory | (mix << 3) | (0x20 if independent else 0) | (0x40 if private else 0)
        if seat is not None:
            return self.op(CREATE, c, seats - 2, flags | 0x80, seat, NO_BREAK)
        return self.op(CREATE, c, seats - 2, flags, NO_BREAK)

    def game(self, c, kind, game=0, invite=False, seat=None, text=None):
        pick = kind | (WITH_INVITE if invite else 0) | (0x20 if seat is not None else 0)
        self.op(GAME, c, pick, game)
        if kind == JOIN and seat is not None:
            self.op(seat)
        if kind == CHAT:
            self.text(text or "")
        return self.op(NO_BREAK)

    def play(self, c, game=0, pick=0):
        return self.op(PLAY, c, game, pick, 0, NO_BREAK)

    def undo(self, c, game=0):
        return self.op(UNDO, c, game, 0)

    def api(self, c, what, who=1, game=0):
        return self.op(API, c, what, who, game)

    def close(self, c):
        return self.op(CLOSE, c)

    def restart(self):
        return self.op(RESTART)

    def autoplay(self, steps, chooser, game=0):
        while steps > 0:
            self.op(AUTOPLAY, game, min(steps, 64) - 1, chooser & 0xff)
            steps -= 64
            chooser += 1
        return self

    def misc(self, c, pick):
        return self.op(MISC, c, pick, NO_BREAK)

    def players(self, names):
        for c, name in enumerate(names):
            self.signup(c, name).auth(c)
        return self


def two_player_game_to_the_end():
    p = Program(1).players(["Alice", "Bob"])
    p.misc(0, LOBBY_SUBSCRIBE).create(0).game(1, JOIN).autoplay(60, 7)
    p.raw(1, {"type": "game.action", "req": 9, "game_id": 1, "seq": 0,
              "action": {"kind": "concede"}})
    p.api(0, API_REPLAY_SEAT, who=1).api(1, API_REPLAY, who=0).api(0, API_MY_GAMES)
    return p


def private_three_player_game():
    p = Program(2).players(["Ann", "Ben", "Cy", "Dee"])
    p.create(0, seats=3, victory=1, private=True)
    p.game(1, JOIN, invite=True).game(3, WATCH).game(3, WATCH, invite=True)
    p.game(2, JOIN, invite=True, seat=2).autoplay(12, 3)
    for c in range(3):
        p.undo(c)
    p.game(3, CHAT, invite=True, text="hello from the stands").game(0, CHAT, text="gg")
    p.api(3, API_GAME_INVITE, who=0).api(3, API_GAME, who=0).autoplay(20, 4)
    return p


def restart_mid_game():
    p = Program(3).players(["Red", "Yellow"])
    p.create(0, mix=1, independent=True).game(1, JOIN).autoplay(20, 5)
    p.restart()
    for c in range(2):
        p.connect(c).auth(c).game(c, WATCH)
    p.autoplay(10, 6).undo(0).undo(1).autoplay(10, 8)
    return p


def lobby_and_early_start():
    p = Program(4).players(["Anna", "Bert", "Carl"])
    p.misc(2, LOBBY_SUBSCRIBE).api(2, API_GAMES, who=0)
    p.create(0, seats=4, victory=2, mix=2, seat=3).game(1, JOIN, seat=3).game(1, JOIN, seat=1)
    p.game(1, LEAVE).game(1, JOIN).game(1, START).game(0, START).misc(0, MY_GAMES)
    p.create(2, seats=2).game(2, LEAVE, game=1).autoplay(12, 9).misc(2, LOBBY_UNSUBSCRIBE)
    p.api(1, API_MY_GAMES).misc(1, PING)
    return p


def six_players_and_lost_connections():
    p = Program(5).players(["P1", "P2", "P3", "P4", "P5", "P6"])
    p.create(0, seats=6, victory=3)
    for c in range(1, 6):
        p.game(c, JOIN)
    p.autoplay(12, 10)
    for c in range(6):
        p.close(c)  # nobody watches: the room is evicted and later loaded from the store
    for c in range(6):
        p.connect(c).auth(c).game(c, WATCH)
    p.autoplay(12, 11).game(4, UNWATCH).autoplay(6, 12)
    return p


def bad_messages():
    p = Program(6).players(["Eve"])
    p.connect(1).misc(1, MY_GAMES).auth(1, how=2).auth(1, how=3).text("nope")
    p.auth(1, how=2)  # the third failure closes the connection
    for raw in ["", "{", "[]", "null", '{"type":7}', '{"type":"ping","req":"x"}',
                '{"type":"game.create","seats":"2"}', '{"type":"game.create","seats":9}',
                '{"type":"game.action","game_id":1,"seq":0,"action":[]}',
                '{"type":"game.join","game_id":99}', '{"type":"chat.send","game_id":1}',
                '{"type":"auth","token":"' + "0" * 64 + '"}',
                '{"type":"\\u0000"}', '{"type":"ping","req":1e3}']:
        p.raw(0, raw)
    p.misc(0, NONSENSE_TYPE).op(API, 0, 7, 0, 0).text("/api/games/1/../../etc")
    p.op(API, 0, 0x80, 0, 0)  # DELETE /api/games
    return p


def stale_and_out_of_turn():
    p = Program(7).players(["Kim", "Lee", "Max"])
    p.create(0).game(1, JOIN).game(2, WATCH)

    def action(c, seq, kind="end_phase", **fields):
        return p.raw(c, {"type": "game.action", "req": 8, "game_id": 1, "seq": seq,
                         "action": dict(kind=kind, **fields)})

    for c in range(3):
        action(c, 5)  # stale (the spectator: not seated)
        action(c, 0)  # not his decision, or not possible during the setup
        action(c, 0, "move", unit=0, hex=9999)
    p.autoplay(1, 13)
    p.op(UNDO, 1, 0, 0x81).undo(0).undo(1).autoplay(20, 13)
    # A legal action with its hex shifted, for both seats: the seat that must not decide is
    # offered only "concede", so the game ends here.
    p.op(PLAY, 0, 0, 1, 0xe3, NO_BREAK).op(PLAY, 1, 0, 1, 0xe3, NO_BREAK)
    p.op(PLAY, 2, 0, 0, 0, NO_BREAK)  # a spectator acts (he is offered nothing)
    return p


def broken_fields():
    """Messages with one field of the wrong type or missing (maybe_break: 0xc0, then a byte
    choosing the field and the damage)."""
    p = Program(8).players(["Ida", "Jon"])
    for what in range(0, 72, 7):
        p.op(CREATE, 0, 0, 0, 0xc0, what)
    p.create(0).op(GAME, 1, JOIN, 0, 0xc0, 5).game(1, JOIN)
    for what in range(0, 36, 5):
        p.op(PLAY, 0, 0, 0, 0, 0xc0, what).op(PLAY, 1, 0, 0, 0, 0xc0, what)
        p.op(GAME, 0, CHAT, 0).text("hi").op(0xc0, what)
        p.op(MISC, 1, MY_GAMES, 0xc0, what)
    p.autoplay(6, 14)
    return p


PROGRAMS = {
    "two-player-game-to-the-end": two_player_game_to_the_end,
    "private-three-player-game": private_three_player_game,
    "restart-mid-game": restart_mid_game,
    "lobby-and-early-start": lobby_and_early_start,
    "six-players-and-lost-connections": six_players_and_lost_connections,
    "bad-messages": bad_messages,
    "stale-and-out-of-turn": stale_and_out_of_turn,
    "broken-fields": broken_fields,
}


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    os.makedirs(sys.argv[1], exist_ok=True)
    for name, make in PROGRAMS.items():
        with open(os.path.join(sys.argv[1], name), "wb") as f:
            f.write(make().out)


if __name__ == "__main__":
    main()
