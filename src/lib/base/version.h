/* version: the program's version, printed by --version everywhere. */
#ifndef MODELCAT_VERSION_H
#define MODELCAT_VERSION_H

#define MODELCAT_VERSION "0.1.0"

#endif
