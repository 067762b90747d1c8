#!/bin/sh
# The files of src/ call and include only into their own layer or the
# layers it is over, as the table of layers in doc/HACKING says: the
# symbols each object leaves undefined (nm) may be defined only by an
# object of the same layer or one below, and each #include "..." of a
# file of src/ may name only a header of the same layer or one below.
# The files of a layer marked "alone" call none of one another, the
# calls between files form no cycle but within a layer marked
# "circle", and every file of src/ and every object has a layer.

. "${srcdir=.}/tests/init.sh"

NM=${NM-nm}
command -v "$NM" > /dev/null || skip_ "no $NM"

src=$abs_top_srcdir/src
lib=$abs_top_builddir/src/libcpdd.a
test -f "$lib" || framework_failure_
test -n "$cp_objects" || framework_failure_

# The one table, between its marker lines in doc/HACKING.
sed -n '/^--- layers: begin/,/^--- layers: end/{/^---/d;p;}' \
  "$abs_top_srcdir/doc/HACKING" > layers || framework_failure_
test -s layers || framework_failure_

# The objects of each program: the library's, and the program's own,
# named by its sources.  mpicp's carry the prefix "mpicp-" of its own
# flags, and are told from the objects of a test program built from
# mpicp's sources by the source each is of.  mpicp is checked where it
# was built.
dd_objects=$(cd "$abs_top_builddir" && echo src/dd.o src/dd-*.o) \
  || framework_failure_
mpicp_objects=
if test -x "$abs_top_builddir/src/mpicp"; then
  for o in "$abs_top_builddir"/src/mpicp-*.o; do
    stem=${o##*/mpicp-}
    test -f "$src/${stem%.o}.c" && mpicp_objects="$mpicp_objects $o"
  done
fi

# POSIX output: a line "LIBRARY[MEMBER]:" (GNU, Solaris) or
# "LIBRARY(MEMBER):" (BSD) or "MEMBER:" before the symbols of each
# member, then "NAME TYPE [VALUE SIZE]" per symbol.  Print a line
# "call PROGRAM FROM TO SYMBOL" per symbol an object of PROGRAM
# leaves undefined that another of its objects defines, a line
# "file NAME.o" per object, and "nothing NAME.o" if it defines no
# symbol.
calls ()
{
  (cd "$abs_top_builddir" && "$NM" -P "$lib" $2) > "$1.symbols" 2> nm.err \
    || return
  awk -v program="$1" '
  NF == 1 && /:$/ {
    obj = $1
    sub (/[])]?:$/, "", obj)
    sub (/^.*[[(]/, "", obj)
    sub (/^.*\//, "", obj)
    sub (/^libcpdd_a-/, "", obj)
    if (program == "mpicp")
      sub (/^mpicp-/, "", obj)
    sub (/\.o(bj)?$/, "", obj)
    objs[obj] = 1
    next
  }
  NF >= 2 {
    if ($2 == "U")
      uses[obj, ++nuses[obj]] = $1
    else if ($2 ~ /^[A-TV-Z]$/)
      {
        definer[$1] = obj
        defined[obj]++
      }
  }
  END {
    for (obj in objs)
      {
        print "file", obj ".o"
        if (!defined[obj])
          print "nothing", obj ".o"
        for (i = 1; i <= nuses[obj]; i++)
          {
            sym = uses[obj, i]
            if ((sym in definer) && definer[sym] != obj)
              print "call", program, obj ".o", definer[sym] ".o", sym
          }
      }
  }' "$1.symbols"
}

{
  calls cp "$cp_objects" || framework_failure_
  calls dd "$dd_objects" || framework_failure_
  if test -n "$mpicp_objects"; then
    calls mpicp "$mpicp_objects" || framework_failure_
  fi

  # A line "file NAME" per file of src/, and "include FROM HEADER" per
  # #include of a header that src/ holds.
  for f in "$src"/*.c "$src"/*.h; do
    name=${f##*/}
    echo file "$name"
    sed -n 's/^[ 	]*#[ 	]*include[ 	]*"\([^"]*\)".*/\1/p' "$f" |
      while read -r h; do
        test -f "$src/$h" && echo include "$name" "$h"
      done
  done
} > edges || framework_failure_

# Print one line per violation of the table by the edges.
awk '
  # The table: LAYER KIND OVER FILE..., KIND "-", "alone" or "circle",
  # OVER the layers just below it, separated by commas, or "-".  A
  # FILE with a suffix names that file; a stem names FILE.c, FILE.h
  # and FILE.o, where no row names the file itself.
  FNR == NR {
    if ($1 ~ /^#/ || NF == 0)
      next
    if (!($1 in kind))
      {
        kind[$1] = $2
        n = split ($3, below, ",")
        for (i = 1; i <= n; i++)
          if (below[i] != "-")
            over[$1, below[i]] = 1
        layers[++nlayers] = $1
      }
    for (i = 4; i <= NF; i++)
      layer_of[$i] = $1
    next
  }
  $1 == "file" { files[$2] = 1; next }
  $1 == "nothing" {
    print $2 ": no symbols defined (is nm able to read it?)"
    next
  }
  $1 == "include" { includes[++nincludes] = $2 " " $3; next }
  $1 == "call" { calls[++ncalls] = $2 " " $3 " " $4 " " $5; next }

  function layer (f,    stem)
  {
    if (f in layer_of)
      return layer_of[f]
    stem = f
    sub (/\.[cho]$/, "", stem)
    return (stem in layer_of) ? layer_of[stem] : ""
  }

  END {
    # Which layers each is over, directly or through others.
    for (k = 1; k <= nlayers; k++)
      for (i = 1; i <= nlayers; i++)
        for (j = 1; j <= nlayers; j++)
          if (over[layers[i], layers[k]] && over[layers[k], layers[j]])
            over[layers[i], layers[j]] = 1

    for (f in files)
      if (layer(f) == "")
        print f ": not in the table of layers"
    for (f in layer_of)
      if (!((f in files) || (f ".c" in files) || (f ".h" in files)))
        print f ": in the table but not in src/"

    for (i = 1; i <= nincludes; i++)
      {
        split (includes[i], e, " ")
        from = layer(e[1]); to = layer(e[2])
        if (from != "" && to != "" && from != to && !over[from, to])
          print e[1] " (" from ") includes " e[2] " (" to \
                "), not of a layer below"
      }

    for (i = 1; i <= ncalls; i++)
      {
        split (calls[i], e, " ")
        program = e[1]; obj = e[2]; to = e[3]
        lf = layer(obj); lt = layer(to)
        if (lf == "" || lt == "")
          continue
        if (lf != lt && !over[lf, lt])
          print obj " (" lf ") calls " e[4] " of " to " (" lt \
                "), not of a layer below"
        else if (lf == lt && kind[lf] == "alone")
          print obj " (" lf ") calls " e[4] " of " to \
                ", another file of its layer"
        if (lf == lt && kind[lf] == "circle")
          continue
        if (!((program, obj, to) in edge))
          {
            edge[program, obj, to] = 1
            out[program, obj] = out[program, obj] " " to
            nodes[program, obj] = 1
          }
      }

    # A cycle is an edge back to a file still on the depth-first path.
    for (pn in nodes)
      {
        split (pn, p, SUBSEP)
        if (!state[pn])
          visit(p[1], p[2])
      }
  }
  function visit(program, f,    n, next_f, i, key) {
    state[program, f] = 1
    n = split (out[program, f], next_f, " ")
    for (i = 1; i <= n; i++)
      {
        key = program SUBSEP next_f[i]
        if (state[key] == 1)
          print "cycle through " (f < next_f[i] ? f " and " next_f[i] \
                                   : next_f[i] " and " f)
        else if (!state[key])
          visit(program, next_f[i])
      }
    state[program, f] = 2
  }
' layers edges | sort -u > violations || framework_failure_

compare /dev/null violations || fail=1

Exit $fail
