#!/usr/bin/env python3
"""Follow points with OpenCV's pyramidal Lucas-Kanade, for TestLKMatchesOpenCV.

Usage: lk_opencv.py PREV.pgm NEXT.pgm POINTS.txt WINDOW LEVELS
POINTS.txt holds one "x y" a line; prints "status x y" a line for each.
"""
import sys

import cv2
import numpy as np

prev = cv2.imread(sys.argv[1], cv2.IMREAD_GRAYSCALE)
nxt = cv2.imread(sys.argv[2], cv2.IMREAD_GRAYSCALE)
pts = np.loadtxt(sys.argv[3], dtype=np.float32).reshape(-1, 1, 2)
win, levels = int(sys.argv[4]), int(sys.argv[5])
out, status, _ = cv2.calcOpticalFlowPyrLK(
    prev, nxt, pts, None, winSize=(win, win), maxLevel=levels,
    criteria=(cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 30, 0.01))
for s, p in zip(status.ravel(), out.reshape(-1, 2)):
    print(int(s), repr(float(p[0])), repr(float(p[1])))
