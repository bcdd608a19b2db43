/**
 * Link lengths as Calliope 0.6 computes them (`preprocess/util.vincenty`): Vincenty's inverse
 * formula on the WGS84 ellipsoid in metres, rounded to an integer, for lat/lon; Euclidean for
 * x/y (not rounded).
 */

/** Distance between two geographic points in metres, rounded; NaN when it does not converge. */
export function vincentyMetres(
  a: { lat: number; lon: number },
  b: { lat: number; lon: number },
): number {
  const major = 6378137;
  const f = 1 / 298.257223563;
  const minor = major * (1 - f);
  if (a.lat === b.lat && a.lon === b.lon) return 0;
  const rad = Math.PI / 180;
  const u1 = Math.atan((1 - f) * Math.tan(a.lat * rad));
  const u2 = Math.atan((1 - f) * Math.tan(b.lat * rad));
  const l = (b.lon - a.lon) * rad;
  const sinU1 = Math.sin(u1), cosU1 = Math.cos(u1), sinU2 = Math.sin(u2), cosU2 = Math.cos(u2);
  let lambda = l;
  let sinSigma = 0, cosSigma = 0, sigma = 0, cosSqAlpha = 0, cos2SigmaM = 0;
  let converged = false;
  for (let iter = 0; iter < 200; iter++) {
    const sinLambda = Math.sin(lambda), cosLambda = Math.cos(lambda);
    sinSigma = Math.sqrt(
      (cosU2 * sinLambda) ** 2 + (cosU1 * sinU2 - sinU1 * cosU2 * cosLambda) ** 2,
    );
    if (sinSigma === 0) return 0;
    cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosLambda;
    sigma = Math.atan2(sinSigma, cosSigma);
    const sinAlpha = cosU1 * cosU2 * sinLambda / sinSigma;
    cosSqAlpha = 1 - sinAlpha ** 2;
    // Along the equator cosSqAlpha is 0; Python's ZeroDivisionError branch sets 0.
    cos2SigmaM = cosSqAlpha === 0 ? 0 : cosSigma - 2 * sinU1 * sinU2 / cosSqAlpha;
    const c = f / 16 * cosSqAlpha * (4 + f * (4 - 3 * cosSqAlpha));
    const previous = lambda;
    lambda = l + (1 - c) * f * sinAlpha *
        (sigma + c * sinSigma * (cos2SigmaM + c * cosSigma * (-1 + 2 * cos2SigmaM ** 2)));
    if (Math.abs(lambda - previous) < 1e-12) {
      converged = true;
      break;
    }
  }
  if (!converged) return NaN;
  const uSq = cosSqAlpha * (major ** 2 - minor ** 2) / minor ** 2;
  const bigA = 1 + uSq / 16384 * (4096 + uSq * (-768 + uSq * (320 - 175 * uSq)));
  const bigB = uSq / 1024 * (256 + uSq * (-128 + uSq * (74 - 47 * uSq)));
  const deltaSigma = bigB * sinSigma * (cos2SigmaM +
    bigB / 4 * (cosSigma * (-1 + 2 * cos2SigmaM ** 2) -
        bigB / 6 * cos2SigmaM * (-3 + 4 * sinSigma ** 2) * (-3 + 4 * cos2SigmaM ** 2)));
  return roundHalfEven(minor * bigA * (sigma - deltaSigma));
}

// Python 3's round() rounds halves to even.
function roundHalfEven(x: number): number {
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

/** A location's optional coordinates. */
export type PointLike = {
  readonly lat?: number | undefined;
  readonly lon?: number | undefined;
  readonly x?: number | undefined;
  readonly y?: number | undefined;
};

/** Link length between two locations' coordinates, or undefined when they have none in common. */
export function linkDistance(a: PointLike, b: PointLike): number | undefined {
  if (a.lat !== undefined && a.lon !== undefined && b.lat !== undefined && b.lon !== undefined) {
    return vincentyMetres({ lat: a.lat, lon: a.lon }, { lat: b.lat, lon: b.lon });
  }
  if (a.x !== undefined && a.y !== undefined && b.x !== undefined && b.y !== undefined) {
    return Math.hypot(a.x - b.x, a.y - b.y);
  }
  return undefined;
}
