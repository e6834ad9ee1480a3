"""How much pocketlab's moves lose in its games against Fairy-Stockfish,
judged by Fairy-Stockfish at a fixed depth (the diagnosis in README.md, 2026-11-29).

Usage: python3 move-loss.py FAIRY_STOCKFISH VARIANTS_INI DEPTH N LOG...
Picks one of pocketlab's moves (plies 8-120) from each of N random games
of the logs, scores the position before it (Fairy-Stockfish's best) and
after it, and prints the mean and median loss by game phase and the
worst moves with their positions. Needs `pip install polars chess`.
"""
import glob
import random
import statistics
import subprocess
import sys

import chess
import polars as pl

engine, variants, depth, n, logs = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5:]
random.seed(1)
games, moves = {}, {}
for log in logs:
    g = pl.read_parquet(log + "/games/*.parquet")
    for row in g.iter_rows(named=True):
        games[(log, row["game_id"])] = row
    m = pl.read_parquet(log + "/moves/*.parquet").select(["game_id", "ply", "move"])
    for (gid,), grp in m.group_by(["game_id"]):
        moves[(log, gid)] = grp.sort("ply")

fsf = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)


def send(line):
    fsf.stdin.write(line + "\n")
    fsf.stdin.flush()


def until(token):
    lines = []
    while True:
        line = fsf.stdout.readline()
        lines.append(line)
        if line.startswith(token):
            return lines


send("uci")
until("uciok")
send("setoption name VariantPath value " + variants)
send("setoption name UCI_Variant value chess-nocastle")
send("setoption name Hash value 64")
send("isready")
until("readyok")


def score(fen):
    """Fairy-Stockfish's score (side to move, centipawns) and best move."""
    send("position fen " + fen)
    send("go depth %d" % depth)
    lines, cp = until("bestmove"), None
    for line in lines:
        words = line.split()
        if "score" in words and "depth" in words:
            i = words.index("score")
            cp = int(words[i + 2]) if words[i + 1] == "cp" else (30000 if int(words[i + 2]) > 0 else -30000)
    return cp, lines[-1].split()[1]


keys = list(moves)
random.shuffle(keys)
found = []
for key in keys[:n]:
    game, mv = games[key], moves[key]
    fsf_white = "uci=" in game["white_engine"]
    plies = [p for p in mv["ply"].to_list() if ((p % 2 == 0) != fsf_white) and 8 <= p <= 120]
    if not plies:
        continue
    pick = random.choice(plies)
    board = chess.Board(game["start_fen"])
    for ply, uci in zip(mv["ply"].to_list(), mv["move"].to_list()):
        if ply == pick:
            fen = board.fen()
            best, best_move = score(fen)
            board.push_uci(uci)
            after, _ = score(board.fen())
            found.append((ply, best + after, fen, uci, best_move, best, -after))
            break
        board.push_uci(uci)
send("quit")

for lo, hi in [(8, 20), (20, 40), (40, 70), (70, 121)]:
    losses = [f[1] for f in found if lo <= f[0] < hi]
    if losses:
        print(f"plies {lo}-{hi - 1}: {len(losses)} moves, mean loss {statistics.mean(losses):.0f}, "
              f"median {statistics.median(losses):.0f}, over 50: {sum(v > 50 for v in losses)}, "
              f"over 150: {sum(v > 150 for v in losses)}")
for ply, loss, fen, uci, best_move, best, after in sorted(found, key=lambda f: -f[1])[:20]:
    if abs(best) < 400:
        print(f"ply {ply} loss {loss}: {fen} played {uci}, best {best_move} ({best} -> {after})")
