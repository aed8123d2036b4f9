// Family "bounds": the payload of its records (TD_KIND_GLOBAL_OOB, TD_KIND_SHARED_OOB, TD_KIND_MISALIGNED).
// Plain C: the device runtime includes it.
#ifndef TD_BOUNDS_ABI_H
#define TD_BOUNDS_ABI_H

typedef struct td_access_payload {
  long long offset;         // byte offset of the access from the start of its object (the window when unknown)
  unsigned long long addr;  // the address itself
} td_access_payload;

#endif
