#!/usr/bin/python3
"""gallery-tracks.py writes tracks of the pedestrians in OpenCV's vtest.avi as MOT17
ground-truth rows (frame,id,x,y,w,h,1,1,1: class 1 is "pedestrian"), for the README's
and docs/looks.md's pictures (scripts/gallery.sh) until trackink has a tracker of its own.

Usage: gallery-tracks.py VIDEO FRAMES > tracks.txt

How: the background is the per-pixel median of 50 frames spread over the whole clip (the
camera is fixed and nobody stands still for long); a pixel that differs from it by more than
30 in any channel is foreground; an opening and a closing of that mask; its outer contours,
upright and large enough, as boxes; boxes matched greedily to the tracks of the frame before
by IoU, a track kept through up to 8 frames without a match, boxes smoothed over a few
frames so they do not shimmer, and only tracks seen for 15 frames or more written, their ids
renumbered in order of appearance. It is a picture-maker, not a tracker to measure: people
who walk together share a box. Deterministic for one OpenCV version (Debian 12's 4.6).
"""
import sys

import cv2
import numpy as np

THRESHOLD = 30  # code values, in any of B, G, R
MIN_AREA = 200  # px²: smaller blobs are noise in vtest's 768×576 picture
IOU_MATCH = 0.25
MAX_GAP = 8  # frames a track survives without a match
MIN_LEN = 15  # frames a track must be seen for to be written
SMOOTH = 0.5  # weight of the new box in the running average


def iou(a, b):
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    ix = max(0.0, min(ax + aw, bx + bw) - max(ax, bx))
    iy = max(0.0, min(ay + ah, by + bh) - max(ay, by))
    inter = ix * iy
    union = aw * ah + bw * bh - inter
    return inter / union if union > 0 else 0.0


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: gallery-tracks.py VIDEO FRAMES")
    cap = cv2.VideoCapture(sys.argv[1])
    frames = int(sys.argv[2])
    total = int(cap.get(cv2.CAP_PROP_FRAME_COUNT))
    samples = []
    for k in range(50):
        cap.set(cv2.CAP_PROP_POS_FRAMES, k * total // 50)
        ok, img = cap.read()
        if ok:
            samples.append(img)
    background = np.median(np.stack(samples), axis=0).astype(np.int16)
    cap.set(cv2.CAP_PROP_POS_FRAMES, 0)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    tracks = {}  # id -> {"box", "last", "rows"}
    next_id = 1
    for f in range(1, frames + 1):
        ok, img = cap.read()
        if not ok:
            break
        diff = np.abs(img.astype(np.int16) - background).max(axis=2)
        mask = np.where(diff > THRESHOLD, 255, 0).astype(np.uint8)
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)
        mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, kernel, iterations=2)
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        dets = [cv2.boundingRect(c) for c in contours if cv2.contourArea(c) >= MIN_AREA]
        dets = [d for d in dets if d[3] >= 20 and d[3] >= 0.8 * d[2]]  # upright: people
        live = [t for t in tracks if f - tracks[t]["last"] <= MAX_GAP]
        pairs = sorted(
            ((iou(tracks[t]["box"], d), t, i) for t in live for i, d in enumerate(dets)),
            reverse=True,
        )
        used_t, used_d = set(), set()
        for score, t, i in pairs:
            if score < IOU_MATCH or t in used_t or i in used_d:
                continue
            used_t.add(t)
            used_d.add(i)
            old = tracks[t]["box"]
            box = tuple(SMOOTH * n + (1 - SMOOTH) * o for n, o in zip(dets[i], old))
            tracks[t]["box"] = box
            tracks[t]["last"] = f
            tracks[t]["rows"].append((f, box))
        for i, d in enumerate(dets):
            if i not in used_d:
                tracks[next_id] = {"box": tuple(map(float, d)), "last": f, "rows": [(f, d)]}
                next_id += 1
    rows = []
    kept = [t for t in sorted(tracks) if len(tracks[t]["rows"]) >= MIN_LEN]
    for n, t in enumerate(kept, start=1):  # ids renumbered 1, 2, … in order of appearance
        for f, (x, y, w, h) in tracks[t]["rows"]:
            rows.append((f, n, x, y, w, h))
    rows.sort()
    print("# frame,id,bb_left,bb_top,bb_width,bb_height,consider_flag,class,visibility")
    print("# pedestrians of OpenCV's vtest.avi, made by scripts/gallery-tracks.py")
    for f, n, x, y, w, h in rows:
        print(f"{f},{n},{x:.1f},{y:.1f},{w:.1f},{h:.1f},1,1,1")


if __name__ == "__main__":
    main()
