export { unsupportedFeature, type UnsupportedFeature } from './ecma-features';
export { compileSafePattern, safeRegExpEngine, UnsupportedPattern, type SafePattern } from './safe-pattern';
