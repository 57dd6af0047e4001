#!/usr/bin/env python3
"""A blob tracker as a user would write it in an afternoon with OpenCV.

It is trackink's baseline: the accuracy tests run it on the synthetic clips beside
trackink's own tracker and score both with `trackink eval`. It is kept deliberately plain,
the textbook recipe with OpenCV's defaults:

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

Usage: opencv_tracker.py --mode bright|motion|hog [--frames N] VIDEO OUT.txt   (MOTChallenge text)
Needs python3-opencv and python3-scipy (Debian).
"""

import argparse
import sys

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


def hog_detections(cap, path, frames):
    """Writes every frame's HOG people detections, id -1, score 1 (the SVM's own default
    threshold decides), up to frames frames."""
    hog = cv2.HOGDescriptor()
    hog.setSVMDetector(cv2.HOGDescriptor_getDefaultPeopleDetector())
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


def iou(a, b):
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    ix = min(ax + aw, bx + bw) - max(ax, bx)
    iy = min(ay + ah, by + bh) - max(ay, by)
    if ix <= 0 or iy <= 0:
        return 0.0
    inter = ix * iy
    return inter / (aw * ah + bw * bh - inter)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--mode", choices=["bright", "motion", "hog"], required=True)
    p.add_argument("--frames", type=int, default=0, help="stop after this many frames (0: all)")
    p.add_argument("video")
    p.add_argument("out")
    args = p.parse_args()

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
                cost = np.array([[1 - iou(t[1], b) for b in boxes] for t in tracks])
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


if __name__ == "__main__":
    main()
