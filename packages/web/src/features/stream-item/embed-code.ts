/** Path segments of a stream name, each URL-encoded (names may hold '/'). */
const encodedName = (name: string) => name.split('/').map(encodeURIComponent).join('/');

/** The player page of a stream (spec 001 §7): {host}/{name}/embed.html?version=3&autoplay=… */
export function embedUrl(origin: string, name: string, autoplay: boolean): string {
  return `${origin}/${encodedName(name)}/embed.html?version=3&autoplay=${String(autoplay)}`;
}

/** The HTML code to embed the player: an iframe of 640x480 (spec 000 §9). */
export function embedCode(url: string): string {
  return `<iframe style="width:640px; height:480px;" allowfullscreen src="${url}"></iframe>`;
}
