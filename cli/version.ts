// The CLI's version: `skillyard --version`, the package cli/build-package.mjs makes and
// the file name the registry serves it under (/cli/skillyard-<version>.tgz). Raise it
// when the CLI changes in a way users should pick up.
export const CLI_VERSION = '0.2.0';
