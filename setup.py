"""Build script: the package layout and the compiled engine of every shipped ruleset.

The pipeline's folders sit at the top of the repository (rules/, generated/,
frontends/) and install as subpackages of spbc, so an installed spbc carries
its rules, its generated engines and its commands. In the checkout, spbc/rules,
spbc/generated and spbc/frontends are links to the same folders, so the checkout
imports like the install.
"""

from pathlib import Path

from setuptools import setup
from setuptools.extension import Extension

HERE = Path(__file__).parent


def _subpackages(root: str, prefix: str) -> dict[str, str]:
    """Map every folder below root that holds Python or rules files to a package name."""
    mapping = {prefix: root}
    for folder in sorted(p for p in (HERE / root).rglob("*") if p.is_dir()):
        if folder.name.startswith((".", "__")) or folder.name.endswith(".egg-info"):
            continue
        if any(part.is_symlink() for part in (folder, *folder.parents)):
            continue  # spbc/rules, spbc/generated, spbc/frontends: links to the folders mapped below
        rel = folder.relative_to(HERE).as_posix()
        mapping[prefix + "." + ".".join(folder.relative_to(HERE / root).parts)] = rel
    return mapping


def _engine_extensions() -> list[Extension]:
    """One extension per generated ruleset: generated/<name>/engine.pyx -> spbc.generated.<name>.engine.
    Cython reads the engine.pxd beside each engine.pyx first: the declarations it shares."""
    extensions = []
    for pyx in sorted((HERE / "generated").glob("*/engine.pyx")):
        name = pyx.parent.name
        extensions.append(
            Extension(
                f"spbc.generated.{name}.engine",
                [pyx.relative_to(HERE).as_posix()],
                # Python's own flags add -fwrapv; the engine needs no wrapping (state_problem bounds every
                # value, sums are taken in 64 bits), and without it the compiler drops the sign extension
                # of every int index: 6% fewer instructions a move (spbc.engine.backend builds the same way); the
                # inline limit keeps place(), which follows prices and the colours' income, inline in apply_move
                extra_compile_args=["-O2", "-fno-wrapv", "--param=max-inline-insns-single=200"],
            )
        )
    # the search's C loops, compiled once: they run any ruleset's engine through its c_api() capsule
    extensions.append(Extension("spbc.ai.playouts", ["spbc/ai/playouts.pyx"], extra_compile_args=["-O2"]))
    # the hard level's information-set search, compiled once in the same way
    extensions.append(Extension("spbc.ai.search", ["spbc/ai/search.pyx"], extra_compile_args=["-O2"]))
    # whole games of random, easy and search seats (medium, hard@Nit: it cimports spbc/ai/search.pxd), spb sim's
    # and the balance lab's (with its counters per card), in C through the same capsule
    extensions.append(Extension("spbc.ai.fastplay", ["spbc/ai/fastplay.pyx"], extra_compile_args=["-O2"]))
    from Cython.Build import cythonize

    # the checkout's root holds spbc/, where the engines cimport spbc/contract/engine_api.pxd
    return cythonize(extensions, language_level=3, quiet=True, include_path=[str(HERE)])


package_dir = {"spbc": "spbc"}
package_dir.update(_subpackages("spbc", "spbc"))
package_dir.update(_subpackages("rules", "spbc.rules"))
package_dir.update(_subpackages("generated", "spbc.generated"))
package_dir.update(_subpackages("frontends", "spbc.frontends"))

setup(
    packages=sorted(package_dir),
    package_dir=package_dir,
    package_data={
        # *.pyx, *.pxi and *.pxd: an installed spbc carries each engine's source and its C interface,
        # which Cython code elsewhere cimports (spbc.contract.capi); py.typed: its types (PEP 561);
        # *.js and *.css: the web game's script and stylesheet (spb serve loads nothing from a network)
        "": ["*.spb", "*.j2", "*.lark", "*.md", "*.html", "*.json", "*.pyx", "*.pxi", "*.pxd", "*.pyi", "py.typed",
               "*.js", "*.css"],
    },
    include_package_data=False,
    ext_modules=_engine_extensions(),
    zip_safe=False,
)
