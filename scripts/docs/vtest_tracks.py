#!/usr/bin/python3
"""Tracks for OpenCV's vtest.avi (pedestrians), for trackink's looks on real footage.

Boxes from OpenCV's MOG2 background subtraction (opened and closed, contours of at least
MIN_AREA px, taller than wide), followed by a greedy IoU tracker: each box takes the id of
the unmatched track it overlaps most (IoU >= 0.3, the largest overlap first), else a new id;
a track unseen for 8 frames ends. Not a good tracker (trackink track is the built-in one), but
real people on real footage, and deterministic.

Writes trackink's JSON Lines (1-based frames) to stdout: each box, and its bottom centre as
the track's point (JSON Lines points are explicit); --points writes the box centres as points
and no boxes (a point-only file, for --box-from); --scale K multiplies
every coordinate (for the clip scaled up K times); --first F writes frames F on only,
renumbered from 1 (for the clip cut to start there).

  /usr/bin/python3 scripts/docs/vtest_tracks.py [--points] [--frames N] [--scale K] [--first F] > vtest.jsonl
"""
import argparse
import json
import sys

import cv2

CLIP = "/usr/share/doc/opencv-doc/examples/data/vtest.avi"
MIN_AREA = 500


def iou(a, b):
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    w = min(ax + aw, bx + bw) - max(ax, bx)
    h = min(ay + ah, by + bh) - max(ay, by)
    if w <= 0 or h <= 0:
        return 0.0
    i = w * h
    return i / (aw * ah + bw * bh - i)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--points", action="store_true")
    ap.add_argument("--frames", type=int, default=0)
    ap.add_argument("--scale", type=float, default=1)
    ap.add_argument("--first", type=int, default=1)
    args = ap.parse_args()
    cap = cv2.VideoCapture(CLIP)
    if not cap.isOpened():
        sys.exit(f"cannot open {CLIP} (Debian package opencv-doc)")
    bg = cv2.createBackgroundSubtractorMOG2(history=300, varThreshold=25, detectShadows=True)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    tracks = {}  # id -> (box, last frame)
    next_id = 1
    n = 0
    while True:
        ok, img = cap.read()
        if not ok or (args.frames and n >= args.frames):
            break
        n += 1
        mask = bg.apply(img)
        _, mask = cv2.threshold(mask, 200, 255, cv2.THRESH_BINARY)  # shadows (127) out
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)
        mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, kernel, iterations=3)
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        boxes = [cv2.boundingRect(c) for c in contours if cv2.contourArea(c) >= MIN_AREA]
        boxes = sorted(b for b in boxes if b[3] > b[2] * 0.9)
        if n < 30:  # the background model is still learning
            continue
        live = {i: t for i, t in tracks.items() if n - t[1] <= 8}
        pairs = sorted(((iou(b, t[0]), k, i) for k, b in enumerate(boxes) for i, t in live.items()), reverse=True)
        ids, used = {}, set()
        for v, k, i in pairs:
            if v < 0.3:
                break
            if k in ids or i in used:
                continue
            ids[k] = i
            used.add(i)
        out = {"frame": n - args.first + 1}
        items = []
        for k, b in enumerate(boxes):
            if k not in ids:
                ids[k] = next_id
                next_id += 1
            tracks[ids[k]] = (b, n)
            x, y, w, h = (v * args.scale for v in b)
            if args.points:
                items.append({"id": ids[k], "x": x + w / 2, "y": y + h / 2})
            else:
                items.append({"id": ids[k], "x": x, "y": y, "w": w, "h": h, "label": "person"})
        if args.points:
            out["points"] = items
        else:
            out["boxes"] = items
            out["points"] = [{"id": b["id"], "x": b["x"] + b["w"] / 2, "y": b["y"] + b["h"]} for b in items]
        if n >= args.first:
            print(json.dumps(out))


if __name__ == "__main__":
    main()
