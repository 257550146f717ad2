/* global document */
// The page's whole app: list the pets, add one. It talks to the API its <meta> tags name, with their key.
const setting = (name) => document.querySelector(`meta[name="${name}"]`).content;
const api = setting('pets-api');
const headers = { authorization: `Bearer ${setting('pets-api-key')}`, accept: 'application/json' };
const list = document.querySelector('#pets');
const status = document.querySelector('#status');

async function call(path, init = {}) {
  const res = await fetch(`${api}${path}`, { ...init, headers: { ...headers, ...init.headers } });
  const body = await res.json();
  if (!res.ok) throw new Error(`${res.status}: ${body.message}`);
  return body;
}

async function showPets() {
  try {
    const pets = await call('/pets?limit=100');
    list.replaceChildren(...pets.map((pet) => Object.assign(document.createElement('li'), { textContent: pet.name })));
    status.textContent = `${pets.length} pets`;
  } catch (error) {
    list.replaceChildren();
    status.textContent = `Could not load the pets (${error.message})`;
  }
}

document.querySelector('#new-pet').addEventListener('submit', async (event) => {
  event.preventDefault();
  const form = event.target;
  const pet = { name: form.elements.name.value, categoryId: 1, status: 'available' };
  try {
    await call('/pets', { method: 'POST', body: JSON.stringify(pet), headers: { 'content-type': 'application/json' } });
    form.reset();
    await showPets();
  } catch (error) {
    status.textContent = `Could not add ${pet.name} (${error.message})`;
  }
});

await showPets();
