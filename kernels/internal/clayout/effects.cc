// effects.cc: the table behind clayout.EffectsEntry: effects.h's records.
#include <cstddef>

#include "../../effects.h"

extern "C" long tk_effects_layout(int i) {
  const long v[] = {
      (long)sizeof(TkEffectBox),            (long)sizeof(TkFxPlane),             (long)sizeof(TkFxCopy),
      (long)sizeof(TkEffects),              (long)offsetof(TkEffectBox, kind),   (long)offsetof(TkEffectBox, tint),
      (long)offsetof(TkFxPlane, stride),    (long)offsetof(TkFxPlane, black),    (long)offsetof(TkEffects, boxes),
      (long)offsetof(TkEffects, planes),    (long)offsetof(TkEffects, copies),   (long)offsetof(TkParams, effects),
      (long)sizeof(TkCamera),               (long)offsetof(TkCamera, amp),       (long)offsetof(TkCamera, shift),
      (long)offsetof(TkCamera, planes),     (long)offsetof(TkCamera, copies),    (long)offsetof(TkParams, camera),
      (long)offsetof(TkEffectBox, sortLo),  (long)offsetof(TkEffectBox, sortColumns),
      (long)offsetof(TkCamera, tint),       (long)offsetof(TkCamera, move),
      (long)offsetof(TkEffectBox, feather), (long)offsetof(TkEffectBox, transparency),
      (long)offsetof(TkEffectBox, sortDescending), (long)offsetof(TkEffectBox, sortKey),
      (long)offsetof(TkEffectBox, sortMinRun),
      (long)offsetof(TkCamera, ampC),       (long)offsetof(TkCamera, keyC),
      (long)sizeof(TkFxGauss),              (long)offsetof(TkFxGauss, cols),     (long)offsetof(TkEffects, gauss),
      (long)offsetof(TkFxGauss, r),
      (long)sizeof(TkFxSort),               (long)offsetof(TkFxSort, cols),      (long)offsetof(TkFxSort, first),
      (long)offsetof(TkEffects, sort),      (long)offsetof(TkEffects, sortLines),
  };
  return i >= 0 && i < (int)(sizeof(v) / sizeof(v[0])) ? v[i] : -1;
}
