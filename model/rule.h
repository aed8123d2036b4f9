// A finding kind's rule metadata (the registry is model/rules.h): plain data, so a check family's
// descriptor can carry the rules of its own kinds.
#pragma once
#include <vector>

namespace td {

enum class Severity { Error, Warning };

struct Rule {
  const char* id;                // the finding's kind: "global-out-of-bounds"
  const char* family;            // the --checks family that finds it; "run" for how a launch ended,
                                 // "repeat" for --repeat's comparison
  Severity severity;
  const char* shortDescription;  // one line
  const char* fullDescription;   // what it means
  const char* help;              // the usual cure
  std::vector<const char*> fields;  // what a finding of it reports besides kind, message and count
  // A kind that is benign as a rule (the idiom is what users mean): its findings are set aside as such
  // (Report::benign, named in one note) unless the family setting named here is given; null: always a finding.
  const char* reportedWith = nullptr;
};

}  // namespace td
