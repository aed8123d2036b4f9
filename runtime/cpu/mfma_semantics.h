// CPU semantics of AMD's MFMA matrix instructions at wave 64 (the td.mfma pseudo-instruction of the HIP
// prelude), with the CDNA3 operand layouts for a single 16x16 output block.
#pragma once
#include <vector>

#include "instrument/ptx_catalogue.h"

namespace td::cpu {

struct SimThread;

// D = A·B + C for the whole wave: `lanes` holds the wave's 64 lanes (all taking part); each lane's asmIn
// holds its A words, B words, then C; its asmOut receives D.
void mfma(const std::vector<SimThread*>& lanes, const PtxStatement& st);

}  // namespace td::cpu
