#compdef agentboard
# agentboard completion for zsh. Load it in ~/.zshrc, after compinit:
#   source <(agentboard completion zsh)
# The candidates come from agentboard itself: commands, flags, change ids and task ids of the board.
_agentboard() {
  local -a candidates open done
  candidates=("${(@f)$(agentboard __complete -- "${(@)words[2,CURRENT]}" 2>/dev/null)}")
  if [[ ${candidates[1]} == __files__ ]]; then
    _files
    return
  fi
  local c
  for c in $candidates; do
    [[ -z $c ]] && continue
    # A change id ending in "/" is the start of a task id: no space after it.
    if [[ $c == */ ]]; then open+=($c); else done+=($c); fi
  done
  (( ${#done} )) && compadd -Q -- $done
  (( ${#open} )) && compadd -Q -S '' -- $open
  return 0
}
compdef _agentboard agentboard
