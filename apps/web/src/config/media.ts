import { MOBILE_BREAKPOINT_PX } from '@parla/shared/limits';

/** Narrower than the theme's `sm` breakpoint: the portal's mobile layout. */
export const MOBILE_QUERY = `(max-width:${MOBILE_BREAKPOINT_PX - 0.02}px)`;
