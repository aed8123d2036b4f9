// The toy family's region: a free id of the family list (model/regions.h), per site one 32-bit count.
#ifndef TD_STORE_COUNT_ABI_H
#define TD_STORE_COUNT_ABI_H
#define TD_REGION_STORE_COUNTS 6
#endif
