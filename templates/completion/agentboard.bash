# agentboard completion for bash. Load it in ~/.bashrc:
#   source <(agentboard completion bash)
# The candidates come from agentboard itself: commands, flags, change ids and task ids of the board.
_agentboard() {
  local IFS=$'\n'
  local candidates
  candidates=($(agentboard __complete -- "${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null))
  if [[ ${candidates[0]} == __files__ ]]; then
    COMPREPLY=($(compgen -f -- "${COMP_WORDS[COMP_CWORD]}"))
    compopt -o filenames 2>/dev/null
    return 0
  fi
  COMPREPLY=("${candidates[@]}")
  # A change id ending in "/" is the start of a task id: no space after it.
  if [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == */ ]]; then
    compopt -o nospace 2>/dev/null
  fi
  return 0
}
complete -F _agentboard agentboard
