#!/usr/bin/env python3
"""Time what an afternoon's OpenCV tracker does per frame, for trackink bench --detect.

Usage: bench_detect.py MODE FRAMES.raw WIDTH HEIGHT WARMUP
FRAMES.raw holds 8-bit luma planes, one after another. The pipeline is trackink's, in
OpenCV: the plane resized to 540 lines (INTER_AREA), then
  bright/dark: Otsu threshold, open and close 3x3, connected components, Hungarian on IoU;
  motion: MOG2, open and close, connected components, Hungarian on IoU;
  points: goodFeaturesToTrack (200, quality 0.01, spacing), calcOpticalFlowPyrLK forward
  and back (21x21, 3 levels), reseeding;
  objects: OpenCV's HOG people detector (its default SVM, detectMultiScale with an 8x8
  stride and scale step 1.05, as OpenCV's peopledetect sample) on the plane enlarged to
  1152 lines (vtest's walkers fill its 128-px window there), Hungarian on IoU.
Prints the frames per second over the frames after WARMUP, and the CPU milliseconds a
frame (user + system, all of OpenCV's threads).
"""
import sys
import time

import cv2
import numpy as np
from scipy.optimize import linear_sum_assignment

mode, path, w, h, warm = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
planes = np.fromfile(path, dtype=np.uint8).reshape(-1, h, w)
f = max(1, h // 540)
size = (w // f, h // f)
kernel = np.ones((3, 3), np.uint8)
mog = cv2.createBackgroundSubtractorMOG2(detectShadows=False)
hog = cv2.HOGDescriptor()
hog.setSVMDetector(cv2.HOGDescriptor_getDefaultPeopleDetector())
tracks = []
prev, pts = None, None


def iou(a, b):
    x0, y0 = np.maximum(a[:, None, 0], b[None, :, 0]), np.maximum(a[:, None, 1], b[None, :, 1])
    x1 = np.minimum(a[:, None, 0] + a[:, None, 2], b[None, :, 0] + b[None, :, 2])
    y1 = np.minimum(a[:, None, 1] + a[:, None, 3], b[None, :, 1] + b[None, :, 3])
    inter = np.clip(x1 - x0, 0, None) * np.clip(y1 - y0, 0, None)
    area = lambda r: r[:, 2] * r[:, 3]
    return inter / (area(a)[:, None] + area(b)[None, :] - inter)


def step(y):
    global tracks, prev, pts
    small = cv2.resize(y, size, interpolation=cv2.INTER_AREA)
    if mode == "points":
        if prev is not None and pts is not None and len(pts):
            nxt, st, _ = cv2.calcOpticalFlowPyrLK(prev, small, pts, None, winSize=(21, 21), maxLevel=3)
            back, st2, _ = cv2.calcOpticalFlowPyrLK(small, prev, nxt, None, winSize=(21, 21), maxLevel=3)
            ok = (st.ravel() == 1) & (st2.ravel() == 1) & (np.linalg.norm((back - pts).reshape(-1, 2), axis=1) < 0.5)
            pts = nxt[ok]
        if pts is None or len(pts) < 200:
            new = cv2.goodFeaturesToTrack(small, 200, 0.01, 18)
            if new is not None:
                pts = new if pts is None or not len(pts) else np.concatenate([pts, new])[:200]
        prev = small
        return
    if mode == "objects":
        # As the accuracy peer runs it (internal/baseline): enlarged so that vtest's walkers,
        # 60 to 90 px tall at 576 lines, fill HOG's 128-px window.
        big = cv2.resize(y, (w * 1152 // h, 1152), interpolation=cv2.INTER_LINEAR)
        found, _ = hog.detectMultiScale(big, winStride=(8, 8), padding=(8, 8), scale=1.05)
        boxes = np.array(found, dtype=np.float64).reshape(-1, 4)
        if len(tracks) and len(boxes):
            r, c = linear_sum_assignment(1 - iou(np.array(tracks), boxes))
        tracks = list(boxes)
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
    boxes = boxes[stats[1:, 4] >= 0.0002 * size[0] * size[1]]
    if len(tracks) and len(boxes):
        r, c = linear_sum_assignment(1 - iou(np.array(tracks), boxes))
    tracks = list(boxes)


for y in planes[:warm]:
    step(y)
t0, c0 = time.perf_counter(), time.process_time()
n = 0
for y in planes[warm:]:
    step(y)
    n += 1
print(n / (time.perf_counter() - t0), 1000 * (time.process_time() - c0) / n)
