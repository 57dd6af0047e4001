#!/usr/bin/env python3
"""trackink's OpenCV baselines: what a user would write in an afternoon with OpenCV.

One script, two uses (embedded in trackink by internal/baseline):

track: a blob tracker, the baseline the accuracy tests run on the synthetic clips and on
vtest.avi beside trackink's own tracker, scored by `trackink eval`. Deliberately plain, the
textbook recipe with OpenCV's defaults:

  bright: Gaussian blur, Otsu threshold, a morphological opening, connected components;
  motion: MOG2 background subtraction (default parameters but shadow detection, which
          takes the darker half of a textured object for its shadow), an opening and a
          closing, connected components;

  hog:    OpenCV's HOG people detector (its default SVM; detectMultiScale with an 8x8
          stride and a scale step of 1.05, its boxes shrunk to the person as OpenCV's
          peopledetect sample does) on the frame enlarged 2x, since its window finds no one
          under 128 px tall, written as
          detections (id -1) for trackink's own association to follow: the classical
          peer of --detect people;

then, frame to frame (not for hog), the Hungarian method (scipy's linear_sum_assignment) on 1 - IoU
between the previous frame's boxes and this frame's, a pair accepted at IoU >= 0.3, and a
new id for every detection left unmatched. No prediction, no grace period, no
confirmation: what such trackers are known for.

bench: the time a frame takes, for `trackink bench --detect`, of trackink's own pipeline
written in OpenCV, on 8-bit luma planes stored one after another: the plane resized to 540
lines (INTER_AREA), then
  bright/dark: Otsu threshold, open and close 3x3, connected components, Hungarian on IoU;
  motion: MOG2, open and close, connected components, Hungarian on IoU;
  points: goodFeaturesToTrack (200, quality 0.01, spacing), calcOpticalFlowPyrLK forward
  and back (21x21, 3 levels), reseeding;
  objects: the HOG people detector above (detectMultiScale on the plane enlarged to 1152
  lines, where vtest's walkers fill its 128-px window), Hungarian on IoU.
It prints the frames per second over the frames after WARMUP, and the CPU milliseconds a
frame (user + system, all of OpenCV's threads).

Usage:
  opencv_baseline.py track --mode bright|motion|hog [--frames N] VIDEO OUT.txt   (MOTChallenge text)
  opencv_baseline.py bench MODE FRAMES.raw WIDTH HEIGHT WARMUP
Needs python3-opencv and python3-scipy (Debian).
"""

import argparse
import sys
import time

import cv2
import numpy as np
from scipy.optimize import linear_sum_assignment

MIN_AREA = 50  # pixels: specks of noise are not objects
MATCH_IOU = 0.3
HOG_UPSCALE = 2  # HOG's 64x128 window: walkers 60 to 90 px tall need the frame enlarged


def components(mask):
    """Boxes (x, y, w, h) of the mask's connected components of at least MIN_AREA pixels."""
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    return [tuple(int(v) for v in stats[i, :4]) for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] >= MIN_AREA]


def detect_bright(gray):
    blur = cv2.GaussianBlur(gray, (5, 5), 0)
    _, mask = cv2.threshold(blur, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    return components(mask)


def make_motion_detector():
    # Shadow detection marks the darker half of a textured object as shadow: off.
    mog2 = cv2.createBackgroundSubtractorMOG2(detectShadows=False)
    small = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
    large = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (9, 9))

    def detect(gray):
        mask = mog2.apply(gray)
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, small)
        mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, large)
        return components(mask)

    return detect


def hog_people():
    hog = cv2.HOGDescriptor()
    hog.setSVMDetector(cv2.HOGDescriptor_getDefaultPeopleDetector())
    return hog


def hog_detections(cap, path, frames):
    """Writes every frame's HOG people detections, id -1, score 1 (the SVM's own default
    threshold decides), up to frames frames."""
    hog = hog_people()
    frame = 0
    with open(path, "w") as out:
        while frames == 0 or frame < frames:
            ok, bgr = cap.read()
            if not ok:
                break
            frame += 1
            big = cv2.resize(bgr, None, fx=HOG_UPSCALE, fy=HOG_UPSCALE, interpolation=cv2.INTER_LINEAR)
            found, _ = hog.detectMultiScale(big, winStride=(8, 8), padding=(8, 8), scale=1.05)
            for x, y, w, h in found / HOG_UPSCALE:
                # HOG's window is wider and taller than the person in it: the sample shrinks
                # each box so (peopledetect.cpp: 10 % off each side, 7 % off the top, 80 %).
                x, y, w, h = x + 0.1 * w, y + 0.07 * h, 0.8 * w, 0.8 * h
                out.write(f"{frame},-1,{x:.1f},{y:.1f},{w:.1f},{h:.1f},1,-1,-1,-1\n")
    if frame == 0:
        sys.exit("no frames")


def ious(a, b):
    """The IoU of every box of a with every box of b (rows (x, y, w, h))."""
    x0, y0 = np.maximum(a[:, None, 0], b[None, :, 0]), np.maximum(a[:, None, 1], b[None, :, 1])
    x1 = np.minimum(a[:, None, 0] + a[:, None, 2], b[None, :, 0] + b[None, :, 2])
    y1 = np.minimum(a[:, None, 1] + a[:, None, 3], b[None, :, 1] + b[None, :, 3])
    inter = np.clip(x1 - x0, 0, None) * np.clip(y1 - y0, 0, None)
    area = lambda r: r[:, 2] * r[:, 3]
    return inter / (area(a)[:, None] + area(b)[None, :] - inter)


def track(args):
    cap = cv2.VideoCapture(args.video)
    if not cap.isOpened():
        sys.exit(f"cannot open {args.video}")
    if args.mode == "hog":
        hog_detections(cap, args.out, args.frames)
        return
    detect = detect_bright if args.mode == "bright" else make_motion_detector()
    tracks = []  # (id, box) of the previous frame
    next_id = 1
    frame = 0
    with open(args.out, "w") as out:
        while True:
            ok, bgr = cap.read()
            if not ok:
                break
            frame += 1
            boxes = detect(cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY))
            ids = [None] * len(boxes)
            if tracks and boxes:
                cost = 1 - ious(np.array([t[1] for t in tracks], dtype=np.float64), np.array(boxes, dtype=np.float64))
                for r, c in zip(*linear_sum_assignment(cost)):
                    if 1 - cost[r, c] >= MATCH_IOU:
                        ids[c] = tracks[r][0]
            for i in range(len(boxes)):
                if ids[i] is None:
                    ids[i] = next_id
                    next_id += 1
            tracks = list(zip(ids, boxes))
            for tid, (x, y, w, h) in tracks:
                out.write(f"{frame},{tid},{x},{y},{w},{h},-1,-1,-1,-1\n")
    if frame == 0:
        sys.exit(f"{args.video}: no frames")


def bench(args):
    mode, w, h = args.mode, args.width, args.height
    planes = np.fromfile(args.frames, dtype=np.uint8).reshape(-1, h, w)
    f = max(1, h // 540)
    size = (w // f, h // f)
    kernel = np.ones((3, 3), np.uint8)
    mog = cv2.createBackgroundSubtractorMOG2(detectShadows=False)
    # Only the objects mode needs HOG: some OpenCV builds have none, and the other modes
    # must still run there.
    hog = hog_people() if mode == "objects" else None
    state = {"tracks": [], "prev": None, "pts": None}

    def associate(boxes):
        if len(state["tracks"]) and len(boxes):
            linear_sum_assignment(1 - ious(np.array(state["tracks"]), boxes))
        state["tracks"] = list(boxes)

    def step(y):
        small = cv2.resize(y, size, interpolation=cv2.INTER_AREA)
        if mode == "points":
            prev, pts = state["prev"], state["pts"]
            if prev is not None and pts is not None and len(pts):
                nxt, st, _ = cv2.calcOpticalFlowPyrLK(prev, small, pts, None, winSize=(21, 21), maxLevel=3)
                back, st2, _ = cv2.calcOpticalFlowPyrLK(small, prev, nxt, None, winSize=(21, 21), maxLevel=3)
                ok = (st.ravel() == 1) & (st2.ravel() == 1) & (np.linalg.norm((back - pts).reshape(-1, 2), axis=1) < 0.5)
                pts = nxt[ok]
            if pts is None or len(pts) < 200:
                new = cv2.goodFeaturesToTrack(small, 200, 0.01, 18)
                if new is not None:
                    pts = new if pts is None or not len(pts) else np.concatenate([pts, new])[:200]
            state["prev"], state["pts"] = small, pts
            return
        if mode == "objects":
            big = cv2.resize(y, (w * 1152 // h, 1152), interpolation=cv2.INTER_LINEAR)
            found, _ = hog.detectMultiScale(big, winStride=(8, 8), padding=(8, 8), scale=1.05)
            associate(np.array(found, dtype=np.float64).reshape(-1, 4))
            return
        if mode == "motion":
            mask = mog.apply(small)
        else:
            inv = cv2.THRESH_BINARY_INV if mode == "dark" else cv2.THRESH_BINARY
            _, mask = cv2.threshold(small, 0, 255, inv | cv2.THRESH_OTSU)
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)
        mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, kernel)
        n, _, stats, _ = cv2.connectedComponentsWithStats(mask)
        boxes = stats[1:, :4].astype(np.float64)
        associate(boxes[stats[1:, 4] >= 0.0002 * size[0] * size[1]])

    for y in planes[: args.warmup]:
        step(y)
    t0, c0 = time.perf_counter(), time.process_time()
    n = 0
    for y in planes[args.warmup :]:
        step(y)
        n += 1
    print(n / (time.perf_counter() - t0), 1000 * (time.process_time() - c0) / n)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    t = sub.add_parser("track", help="track a video into MOTChallenge text")
    t.add_argument("--mode", choices=["bright", "motion", "hog"], required=True)
    t.add_argument("--frames", type=int, default=0, help="stop after this many frames (0: all)")
    t.add_argument("video")
    t.add_argument("out")
    t.set_defaults(run=track)
    b = sub.add_parser("bench", help="time trackink's pipeline in OpenCV on raw luma planes")
    b.add_argument("mode", choices=["bright", "dark", "motion", "points", "objects"])
    b.add_argument("frames", help="8-bit luma planes, one after another")
    b.add_argument("width", type=int)
    b.add_argument("height", type=int)
    b.add_argument("warmup", type=int, help="frames run before the timing starts")
    b.set_defaults(run=bench)
    args = p.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
