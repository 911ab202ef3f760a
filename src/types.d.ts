/** Text files bundled as strings (templates, prompts, shell completion scripts). */
declare module '*?raw' {
  const text: string;
  export default text;
}
