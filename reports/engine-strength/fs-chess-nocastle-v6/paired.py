"""Two builds' matches against one opponent on the same openings, paired.

Usage: python3 paired.py POCKETLAB A_LOG... -- B_LOG...
(the logs of A and of B in the same seed order), or without `--`
python3 paired.py POCKETLAB LOG... for pocketlab's pooled figure over
the logs' pairs (the mean pair score with a normal 95% interval, in Elo). Each pair of games from
one opening gives A's and B's pair score (0 to 2 points); the mean of
A minus B, with a normal 95% interval, is turned into Elo at B's mean
score; z is the mean over its standard error (for sequential
boundaries such as Pocock's). Reads the games through `pocketlab
pgn`; needs only Python 3.
"""
import math
import re
import subprocess
import sys


def pair_scores(pocketlab, log):
    text = subprocess.run([pocketlab, "pgn", log], capture_output=True, text=True, check=True).stdout
    scores = {}
    for game in text.split("[Event ")[1:]:
        pair = re.search(r'\[Round "(\d+)\.\d+"\]', game).group(1)
        result = re.search(r'\[Result "([^"]+)"\]', game).group(1)
        white = re.search(r'\[White "([^" ]+)', game).group(1)
        points = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[result]
        scores[pair] = scores.get(pair, 0.0) + (points if white == "pocketlab" else 1 - points)
    return scores


def elo(score):
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / score - 1)


def pooled(pocketlab, logs):
    scores = [s / 2 for log in logs for s in pair_scores(pocketlab, log).values()]
    n = len(scores)
    mean = sum(scores) / n
    se = math.sqrt(sum((s - mean) ** 2 for s in scores) / (n - 1) / n)
    print(f"{n} pairs: pocketlab {elo(mean):+.0f} Elo "
          f"({elo(mean - 1.96 * se):+.0f} to {elo(mean + 1.96 * se):+.0f}); "
          f"score {mean:.3f} (se {se:.3f})")


def main():
    pocketlab, rest = sys.argv[1], sys.argv[2:]
    if "--" not in rest:
        return pooled(pocketlab, rest)
    split = rest.index("--")
    a_logs, b_logs = rest[:split], rest[split + 1:]
    diffs, b_all = [], []
    for a_log, b_log in zip(a_logs, b_logs, strict=True):
        a, b = pair_scores(pocketlab, a_log), pair_scores(pocketlab, b_log)
        for pair in a.keys() & b.keys():
            diffs.append(a[pair] - b[pair])
            b_all.append(b[pair])
    n = len(diffs)
    mean = sum(diffs) / n
    se = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n)
    base = sum(b_all) / n / 2
    to_elo = lambda d: elo(base + d / 2) - elo(base)
    # Every pair scoring alike (two identical builds at a node limit) leaves no spread.
    z = f"{mean / se:.2f}" if se > 0 else "undefined"
    print(f"{n} pairs: A - B = {to_elo(mean):+.0f} Elo "
          f"({to_elo(mean - 1.96 * se):+.0f} to {to_elo(mean + 1.96 * se):+.0f}); "
          f"pair score {mean:+.3f} (se {se:.3f}, z {z})")


main()
