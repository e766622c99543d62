// The functions live in the header so that Swift can inline them; this file gives the target a body.
#include "BenchSupport.h"
