import { createFileRoute } from '@tanstack/react-router';
import { categoryRoute } from '../app/category-route';

export const Route = createFileRoute('/phim-shows')(categoryRoute('phim-shows'));
